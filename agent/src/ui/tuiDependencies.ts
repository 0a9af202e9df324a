import { type HistoryPaymentView, zerc20TokenAbi } from "@svc/scheme";
import { privateKeyToAccount } from "viem/accounts";

import { decideApproval } from "../approvals/decideApproval.js";
import type { ApprovalRequest } from "../approvals/approvalFiles.js";
import { listPendingApprovals } from "../approvals/listPendingApprovals.js";
import { Ledger } from "../ledger/ledger.js";
import type { LedgerEntry } from "../ledger/ledgerEntry.js";
import type { OnPayEvent } from "../payment/payEvent.js";
import type { AmountFormat } from "../payment/amountFormat.js";
import { createReadClient } from "../payment/createReadClient.js";
import type { PayOutcome } from "../payment/payOutcome.js";
import { resendPayment } from "../payment/resendPayment.js";
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
  verdict: (quote: Quote, format?: AmountFormat) => Promise<QuoteVerdict>;
  pay: (parameters: { quote: Quote; approve: ApprovalGate; onEvent: OnPayEvent; format?: AmountFormat | undefined }) => Promise<PayOutcome>;
  /** Re-sends a stored payment of unknown outcome, byte for byte (as `resend <id>`). */
  resend?: ((parameters: { id: string; onEvent: OnPayEvent }) => Promise<PayOutcome>) | undefined;
  /** The paying account's address; absent without `SVC_PAYER_PK`. */
  payerAddress?: `0x${string}` | undefined;
  /** The payer's balance of a token, base units; absent without `SVC_PAYER_PK`. */
  balance?: ((asset: `0x${string}`) => Promise<bigint>) | undefined;
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
  const payer = policy.payerKey === undefined ? undefined : privateKeyToAccount(policy.payerKey);
  return {
    policy,
    quote: (url) => fetchQuote({ url, policy }),
    verdict: (quote, format) => quoteVerdict(quote, policy, ledger, format),
    pay: ({ quote, approve, onEvent, format }) => payQuote({ quote, policy, ledger, approve, onEvent, format }),
    resend: ({ id, onEvent }) => resendPayment({ id, policy, ledger, onEvent }),
    payerAddress: payer?.address,
    balance:
      payer === undefined
        ? undefined
        : (asset) => createReadClient(policy).readContract({ address: asset, abi: zerc20TokenAbi, functionName: "balanceOf", args: [payer.address] }),
    tokenInfo: (asset) => readTokenInfo(policy, asset),
    spend: () => ledger.entries(),
    pendingApprovals: () => listPendingApprovals(policy.stateDir),
    decide: (id, decision) => decideApproval({ stateDir: policy.stateDir, id, decision, by: "tui" }),
    history: historyConfig?.facilitatorUrl === undefined || policy.payerKey === undefined ? undefined : createPayerHistoryReader(policy, historyConfig),
    now: Date.now,
    pollMs: 500,
  };
}
