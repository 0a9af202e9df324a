import type { PayOutcome } from "../payment/payOutcome.js";

/** Paid (or nothing to pay, or the command did what was asked). */
export const EXIT_OK = 0;
/** The payment failed and nothing is pending (or a command failed); nothing more will happen. */
export const EXIT_FAILED = 1;
/** A usage mistake: unknown command or option, or a malformed `SVC_*` variable. */
export const EXIT_USAGE = 2;
/** The policy declined: host, network, token, a cap, or an offer it cannot pay. Nothing was signed. */
export const EXIT_DECLINED = 3;
/** A human denied the payment, or nobody decided within `SVC_APPROVAL_TIMEOUT_MS`. Nothing was signed. */
export const EXIT_APPROVAL_DENIED = 4;
/** The outcome is unknown (timeout, lost answer, unconfirmed burn): the spend stays reserved; see `resend`. */
export const EXIT_UNKNOWN = 5;
/** The resource answered with a non-2xx status other than 402 (e.g. 404, 502): nothing was offered or paid. */
export const EXIT_HTTP_ERROR = 6;
/** Interrupted (Ctrl-C, SIGINT) while waiting: a pending approval request was withdrawn; nothing was paid. */
export const EXIT_INTERRUPTED = 130;

/** The exit code scripts see for a payment outcome. */
export function exitCodeFor(outcome: PayOutcome): number {
  switch (outcome.kind) {
    case "paid":
    case "not-required":
      return EXIT_OK;
    case "declined":
      return EXIT_DECLINED;
    case "approval-denied":
      return EXIT_APPROVAL_DENIED;
    case "unknown":
      return EXIT_UNKNOWN;
    case "failed":
      return EXIT_FAILED;
    case "http-error":
      return EXIT_HTTP_ERROR;
  }
}
