import type { Address, Network } from "@svc/scheme";

import type { OutcomeOffer } from "./payOutcome.js";

/** The network, token and amount of a quote's offer or a ledger entry, for an outcome. */
export function outcomeOffer(source: { network: Network; asset: Address; amount: bigint }): OutcomeOffer {
  return { network: source.network, asset: source.asset, amount: source.amount };
}

/** The wire form of an outcome's offer in `--json` output and tool results: the amount as a decimal string. */
export function outcomeOfferJson(offer: OutcomeOffer | undefined): { network: string; asset: string; amount: string } | Record<string, never> {
  return offer === undefined ? {} : { network: offer.network, asset: offer.asset, amount: offer.amount.toString() };
}
