import { describe, expect, it } from "vitest";

import * as agent from "./index.js";

describe("public surface", () => {
  // Adding, renaming or removing an export must be a deliberate change to this list.
  it("exports exactly these runtime names", () => {
    expect(Object.keys(agent).sort()).toEqual([
      "ApprovalAlreadyDecidedError",
      "ApprovalDecisionSchema",
      "ApprovalInterruptedError",
      "ApprovalNotFoundError",
      "ApprovalRequestSchema",
      "DECLINE_REASONS",
      "EXIT_APPROVAL_DENIED",
      "EXIT_DECLINED",
      "EXIT_FAILED",
      "EXIT_OK",
      "EXIT_UNKNOWN",
      "EXIT_USAGE",
      "HostNotAllowedError",
      "HttpRequestFailedError",
      "HttpTimeoutError",
      "Ledger",
      "LedgerCorruptError",
      "LedgerEntryNotFoundError",
      "LedgerLockTimeoutError",
      "LedgerTransitionError",
      "NothingToResendError",
      "OfferAlreadyUsedError",
      "OfferExpiredError",
      "PAYMENT_STATUSES",
      "PayerKeyMissingError",
      "PolicyConfigError",
      "TooManyRedirectsError",
      "countsAgainstCap",
      "createCli",
      "decideApproval",
      "evaluateOffer",
      "exitCodeFor",
      "fetchQuote",
      "fetchWithPolicy",
      "isHostAllowed",
      "listPendingApprovals",
      "loadPolicy",
      "payQuote",
      "payUrl",
      "requestApproval",
      "resendPayment",
      "runCli",
      "summarizeSpend",
      "withFileLock",
    ]);
  });
});
