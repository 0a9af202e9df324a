import { toNetwork } from "@svc/scheme";

import type { Ledger } from "../ledger/ledger.js";
import { entryHost, limitUsage, SPEND_LIMIT_NAMES, SPEND_LIMITS } from "../ledger/spendLimits.js";
import { spentOn } from "../ledger/summarizeSpend.js";
import { evaluateOffer, type OfferEvaluation } from "../policy/evaluateOffer.js";
import type { Policy } from "../policy/policy.js";
import { limitsForToken } from "../policy/tokenLimits.js";
import { type AmountFormat, BASE_UNITS_FORMAT } from "./amountFormat.js";
import { describeOverLimit } from "./describeOverLimit.js";
import type { Quote } from "./quote.js";

/** The policy's verdict on a quote including the total cap and the other ledger limits (base units of the offer's token), as far as the ledger shows it right now. */
export type QuoteVerdict = OfferEvaluation & { spent: string; cap: string | undefined };

/**
 * Applies the total cap, the rolling windows and the per-host budget to a quote's evaluation, without reserving anything: paying
 * re-checks under the ledger lock. Shown by `quote` and the TUI.
 */
export async function quoteVerdict(quote: Quote, policy: Policy, ledger: Ledger, format: AmountFormat = BASE_UNITS_FORMAT): Promise<QuoteVerdict> {
  const { offer } = quote;
  const network = toNetwork(offer.chainId);
  const entries = await ledger.entries();
  const spent = spentOn(entries, network, offer.asset);
  const limits = limitsForToken(policy, quote.token?.decimals);
  const cap = limits?.maxTotal;
  const base = { spent: spent.toString(), cap: cap?.toString() };
  if (quote.evaluation.kind === "allowed" && cap !== undefined && spent + offer.amount > cap) {
    return {
      ...base,
      kind: "declined",
      reason: "above_max_total",
      message: `paying would bring the spend to ${format(spent + offer.amount)}, above SVC_MAX_TOTAL (${format(cap)})`,
    };
  }
  if (quote.evaluation.kind === "allowed" && limits !== undefined) {
    // The session budget is left out: a quote belongs to no MCP session.
    const scope = { network, asset: offer.asset, host: entryHost(quote.url.href) };
    for (const limit of SPEND_LIMIT_NAMES.filter((name) => name !== "maxTotal" && name !== "maxPerMcpSession")) {
      const limitCap = limits[limit];
      if (limitCap === undefined) continue;
      const usage = limitUsage(entries, limit, scope, Date.now());
      if (usage.used + offer.amount <= limitCap) continue;
      const refusal = { kind: "over-cap", limit, spentBefore: usage.used, cap: limitCap, freesAt: usage.freesAt } as const;
      return {
        ...base,
        kind: "declined",
        reason: SPEND_LIMITS[limit].reason,
        message: describeOverLimit(refusal, { network, asset: offer.asset, amount: offer.amount, host: scope.host }, format),
      };
    }
  }
  // Re-worded with the token's units; a per-offer refusal stays the one the quote found.
  const evaluation =
    quote.evaluation.kind === "declined" && quote.evaluation.reason === "above_max_per_payment"
      ? evaluateOffer(policy, offer, Date.now(), format, quote.token?.decimals)
      : quote.evaluation;
  return { ...base, ...evaluation };
}
