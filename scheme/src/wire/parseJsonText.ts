/**
 * The value of a JSON text, or `undefined` when the text is not JSON: for answers and files whose shape a
 * schema checks next, so "not JSON" and "not the shape" end in the same refusal.
 *
 * @example
 * const parsed = ProverAnswerSchema.safeParse(parseJsonText(text));
 */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
