/** The one error class of the bench harness: a named failure with a message an operator can act on. */
export class BenchError extends Error {
  override name = "BenchError";
}
