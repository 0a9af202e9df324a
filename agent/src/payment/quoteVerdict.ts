import { toNetwork } from "@svc/scheme";

import type { Ledger } from "../ledger/ledger.js";
import { spentOn } from "../ledger/summarizeSpend.js";
import { evaluateOffer, type OfferEvaluation } from "../policy/evaluateOffer.js";
import type { Policy } from "../policy/policy.js";
import { limitsForToken } from "../policy/tokenLimits.js";
import { type AmountFormat, BASE_UNITS_FORMAT } from "./amountFormat.js";
import type { Quote } from "./quote.js";

/** The policy's verdict on a quote including the total cap (base units of the offer's token), as far as the ledger shows it right now. */
export type QuoteVerdict = OfferEvaluation & { spent: string; cap: string | undefined };

/**
 * Applies the total cap to a quote's evaluation, without reserving anything: paying
 * re-checks under the ledger lock. Shown by `quote` and the TUI.
 */
export async function quoteVerdict(quote: Quote, policy: Policy, ledger: Ledger, format: AmountFormat = BASE_UNITS_FORMAT): Promise<QuoteVerdict> {
  const { offer } = quote;
  const spent = spentOn(await ledger.entries(), toNetwork(offer.chainId), offer.asset);
  const cap = limitsForToken(policy, quote.token?.decimals)?.maxTotal;
  const base = { spent: spent.toString(), cap: cap?.toString() };
  if (quote.evaluation.kind === "allowed" && cap !== undefined && spent + offer.amount > cap) {
    return {
      ...base,
      kind: "declined",
      reason: "above_max_total",
      message: `paying would bring the spend to ${format(spent + offer.amount)}, above SVC_MAX_TOTAL (${format(cap)})`,
    };
  }
  // Re-worded with the token's units; a per-offer refusal stays the one the quote found.
  const evaluation =
    quote.evaluation.kind === "declined" && quote.evaluation.reason === "above_max_per_payment"
      ? evaluateOffer(policy, offer, Date.now(), format, quote.token?.decimals)
      : quote.evaluation;
  return { ...base, ...evaluation };
}
