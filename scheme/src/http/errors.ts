import { BaseError } from "../errors/base.js";

/**
 * Thrown to one caller of a coalesced JSON-RPC batch whose answer holds no entry for its id: the exchange did not
 * bring its answer, so whether the node ran the call is unknown.
 */
export class MissingBatchAnswerError extends BaseError {
  override name = "MissingBatchAnswerError";
  /** The JSON-RPC id the answer left out. */
  readonly id: number | string;

  constructor({ id }: { id: number | string }) {
    super("The JSON-RPC batch answer has no entry for this call.", { details: `id ${String(id)}` });
    this.id = id;
  }
}
