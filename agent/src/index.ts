/**
 * `@svc/agent`: the svc-zerc20 payer as a library behind its CLI (`dist/cli.js`) and TUI. Policy from the
 * environment, an HTTP client that checks the host allowlist on every hop, the cross-process spend ledger,
 * file-based human approvals, and the purchase pipeline. Exports are listed by name so the public surface
 * changes only on purpose (see `index.test.ts`).
 */

export { ApprovalDecisionSchema, type ApprovalDecision, type ApprovalRequest, ApprovalRequestSchema } from "./approvals/approvalFiles.js";
export { decideApproval, type DecideApprovalParameters } from "./approvals/decideApproval.js";
export { ApprovalAlreadyDecidedError, ApprovalInterruptedError, ApprovalNotFoundError } from "./approvals/errors.js";
export { listPendingApprovals } from "./approvals/listPendingApprovals.js";
export { type ApprovalResult, requestApproval, type RequestApprovalParameters } from "./approvals/requestApproval.js";

export {
  EXIT_APPROVAL_DENIED,
  EXIT_DECLINED,
  EXIT_FAILED,
  EXIT_OK,
  EXIT_UNKNOWN,
  EXIT_USAGE,
  exitCodeFor,
} from "./commands/exitCodes.js";
export { createCli, runCli } from "./commands/runCli.js";

export { HostNotAllowedError, HttpRequestFailedError, HttpTimeoutError, TooManyRedirectsError } from "./http/errors.js";
export { fetchWithPolicy, type FetchWithPolicyParameters, type PolicyResponse } from "./http/fetchWithPolicy.js";

export {
  LedgerCorruptError,
  LedgerEntryNotFoundError,
  LedgerLockTimeoutError,
  LedgerTransitionError,
  OfferAlreadyUsedError,
} from "./ledger/errors.js";
export { Ledger, type OutcomeUpdate, type ReserveInput, type ReserveResult } from "./ledger/ledger.js";
export { countsAgainstCap, type LedgerEntry, PAYMENT_STATUSES, type PaymentStatus } from "./ledger/ledgerEntry.js";
export { type SpendSummary, summarizeSpend } from "./ledger/summarizeSpend.js";
export { withFileLock } from "./ledger/withFileLock.js";

export type { OnPayEvent, PayEvent, PaymentPhase } from "./payment/payEvent.js";
export type { OutcomeOffer, PayOutcome } from "./payment/payOutcome.js";
export { type ApprovalGate, payQuote, type PayQuoteParameters } from "./payment/payQuote.js";
export { payUrl, type PayUrlParameters } from "./payment/payUrl.js";
export { fetchQuote, type Quote, type QuoteResult } from "./payment/quote.js";
export { NothingToResendError, OfferExpiredError, resendPayment } from "./payment/resendPayment.js";

export { DECLINE_REASONS, type DeclineReason } from "./policy/declineReasons.js";
export { PayerKeyMissingError, PolicyConfigError } from "./policy/errors.js";
export { evaluateOffer, type OfferEvaluation } from "./policy/evaluateOffer.js";
export { isHostAllowed } from "./policy/isHostAllowed.js";
export { loadPolicy } from "./policy/loadPolicy.js";
export type { Policy } from "./policy/policy.js";
