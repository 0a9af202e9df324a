/** Errors of the readiness gate. */
import { HttpAnswerError } from "../errors/httpAnswerError.js";

/**
 * `/challenge` while the daemon is not ready (HTTP 503 with `Retry-After`): an offer issued now could not be
 * settled. The message names the failing components, never their URLs or errors.
 */
export class NotReadyError extends HttpAnswerError {
  override name = "NotReadyError";
  /** The components that failed the last readiness probe. */
  readonly failing: readonly string[];

  constructor({ failing, retryAfterSeconds }: { failing: readonly string[]; retryAfterSeconds: number }) {
    super(`not ready (${failing.join(", ")}); retry after ${retryAfterSeconds} s`, {
      status: 503,
      headers: { "Retry-After": String(retryAfterSeconds) },
    });
    this.failing = failing;
  }
}
