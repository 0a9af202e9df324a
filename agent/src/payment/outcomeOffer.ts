import type { OutcomeOffer } from "./payOutcome.js";

/** The network, token and amount of an offer or ledger entry, for outcome output. */
export function outcomeOffer(source: { network: string; asset: string; amount: string }): OutcomeOffer {
  return { network: source.network, asset: source.asset, amount: source.amount };
}
