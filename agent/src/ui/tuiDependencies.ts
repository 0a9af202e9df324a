import type { HistoryPaymentView } from "@svc/scheme";

import { decideApproval } from "../approvals/decideApproval.js";
import type { ApprovalRequest } from "../approvals/approvalFiles.js";
import { listPendingApprovals } from "../approvals/listPendingApprovals.js";
import { Ledger } from "../ledger/ledger.js";
import type { LedgerEntry } from "../ledger/ledgerEntry.js";
import type { OnPayEvent } from "../payment/payEvent.js";
import type { PayOutcome } from "../payment/payOutcome.js";
import { type ApprovalGate, payQuote } from "../payment/payQuote.js";
import { fetchQuote, type Quote, type QuoteResult } from "../payment/quote.js";
import { quoteVerdict, type QuoteVerdict } from "../payment/quoteVerdict.js";
import { readTokenInfo, type TokenInfo } from "../payment/tokenInfo.js";
import { createPayerHistoryReader } from "../history/createPayerHistoryReader.js";
import type { HistoryConfig } from "../history/loadHistoryConfig.js";
import type { Policy } from "../policy/policy.js";

/**
 * Everything the TUI does outside React, as plain async functions: the real ones come from
 * `createTuiDependencies`, and tests swap in scripted ones to drive each screen state.
 */
export type TuiDependencies = {
  policy: Policy;
  quote: (url: URL) => Promise<QuoteResult>;
  verdict: (quote: Quote) => Promise<QuoteVerdict>;
  pay: (parameters: { quote: Quote; approve: ApprovalGate; onEvent: OnPayEvent }) => Promise<PayOutcome>;
  tokenInfo: (asset: `0x${string}`) => Promise<TokenInfo | undefined>;
  spend: () => Promise<LedgerEntry[]>;
  pendingApprovals: () => Promise<ApprovalRequest[]>;
  decide: (id: string, decision: "approved" | "denied") => Promise<void>;
  /** The payer's payments from the facilitator; absent without `SVC_FACILITATOR_URL` or `SVC_PAYER_PK`. */
  history?: (() => Promise<HistoryPaymentView[]>) | undefined;
  now: () => number;
  /** How often the spend and the pending approvals are re-read. */
  pollMs: number;
};

/** The TUI's dependencies on the real policy, ledger, approval files, chain and HTTP. */
export function createTuiDependencies(policy: Policy, historyConfig?: HistoryConfig): TuiDependencies {
  const ledger = new Ledger(policy.stateDir);
  return {
    policy,
    quote: (url) => fetchQuote({ url, policy }),
    verdict: (quote) => quoteVerdict(quote, policy, ledger),
    pay: ({ quote, approve, onEvent }) => payQuote({ quote, policy, ledger, approve, onEvent }),
    tokenInfo: (asset) => readTokenInfo(policy, asset),
    spend: () => ledger.entries(),
    pendingApprovals: () => listPendingApprovals(policy.stateDir),
    decide: (id, decision) => decideApproval({ stateDir: policy.stateDir, id, decision, by: "tui" }),
    history:
      historyConfig?.facilitatorUrl === undefined || policy.payerKey === undefined ? undefined : createPayerHistoryReader(policy, historyConfig),
    now: Date.now,
    pollMs: 500,
  };
}
