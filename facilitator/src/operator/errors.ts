/** Errors of `facilitator status`, the operator's view of a running daemon. */
import { BaseError } from "../errors/base.js";

/** The daemon did not answer at `url` (already credential-redacted), or answered something unexpected. */
export class DaemonUnreachableError extends BaseError {
  override name = "DaemonUnreachableError";
  /** The redacted base URL that was tried. */
  readonly url: string;

  constructor({ url, problem, cause }: { url: string; problem: string; cause?: unknown }) {
    super(`no usable answer from the facilitator at ${url}: ${problem}`, { cause });
    this.url = url;
  }
}

/** The admin API refused the token: unset, wrong, or the daemon has none configured. */
export class AdminTokenRejectedError extends BaseError {
  override name = "AdminTokenRejectedError";

  constructor({ tokenSet }: { tokenSet: boolean }) {
    super(
      tokenSet
        ? "the daemon refused SVC_ADMIN_TOKEN (401): it differs from the daemon's, or the daemon has none configured"
        : "SVC_ADMIN_TOKEN is not set; the admin API needs the daemon's token",
    );
  }
}

/** The daemon has accepted no payment with this challenge nonce (404). */
export class UnknownPaymentError extends BaseError {
  override name = "UnknownPaymentError";

  constructor({ challengeNonce }: { challengeNonce: string }) {
    super(`the daemon has accepted no payment with challenge nonce ${challengeNonce}`);
  }
}
