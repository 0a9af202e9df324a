import { ApprovalInterruptedError, ApprovalNotFoundError } from "../approvals/errors.js";
import { FacilitatorUrlMissingError, HistoryKeyMissingError, PaymentNotRecordedError, TrustAnchorUnreadableError } from "../history/errors.js";
import { HostNotAllowedError } from "../http/errors.js";
import { LedgerEntryNotFoundError } from "../ledger/errors.js";
import { PaymentIdFormatError } from "../ledger/paymentId.js";
import { PayerKeyMissingError, PolicyConfigError } from "../policy/errors.js";
import { EXIT_DECLINED, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE } from "./exitCodes.js";

/** Errors that mean the command line or its environment was wrong: a missing or malformed setting, or an id that names nothing. */
const USAGE_ERRORS = [
  PolicyConfigError,
  PayerKeyMissingError,
  FacilitatorUrlMissingError,
  HistoryKeyMissingError,
  ApprovalNotFoundError,
  LedgerEntryNotFoundError,
  PaymentIdFormatError,
  PaymentNotRecordedError,
  TrustAnchorUnreadableError,
];

/** The exit code of a command that threw instead of returning its own result. */
export function exitCodeForError(error: unknown): number {
  if (USAGE_ERRORS.some((type) => error instanceof type)) return EXIT_USAGE;
  if (error instanceof ApprovalInterruptedError) return EXIT_INTERRUPTED;
  // Commands that pay or quote turn a refused host into their own result; one reaching here is still a policy refusal.
  return error instanceof HostNotAllowedError ? EXIT_DECLINED : EXIT_FAILED;
}
