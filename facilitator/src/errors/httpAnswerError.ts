/**
 * The base of every error that answers an HTTP request with its own status: defined below the layers that raise
 * such errors (settlement, history, readiness, http), so none of them imports the HTTP layer for it.
 */
import { BaseError, type BaseErrorParameters } from "./base.js";

/** An error that is answered with its own status, `{ error: shortMessage }` and `headers`. */
export class HttpAnswerError extends BaseError {
  override name = "HttpAnswerError";
  /** HTTP status of the answer. */
  readonly status: number;
  /** Response headers the answer must carry (for example `Retry-After`). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(shortMessage: string, { status, headers = {}, ...parameters }: BaseErrorParameters & { status: number; headers?: Record<string, string> }) {
    super(shortMessage, parameters);
    this.status = status;
    this.headers = headers;
  }
}
