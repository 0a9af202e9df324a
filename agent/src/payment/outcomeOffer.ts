import type { Address, Network } from "@svc/scheme";

import type { OutcomeOffer } from "./payOutcome.js";

/** The network, token and amount of quoted requirements or a ledger entry (decimal-string amounts), for an outcome. */
export function outcomeOffer(source: { network: Network; asset: Address; amount: string }): OutcomeOffer {
  return { network: source.network, asset: source.asset, amount: BigInt(source.amount) };
}

/** The wire form of an outcome's offer in `--json` output and tool results: the amount as a decimal string. */
export function outcomeOfferJson(offer: OutcomeOffer | undefined): { network: string; asset: string; amount: string } | Record<string, never> {
  return offer === undefined ? {} : { network: offer.network, asset: offer.asset, amount: offer.amount.toString() };
}
