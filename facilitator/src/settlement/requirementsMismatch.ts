/**
 * Requirements arriving at `/verify` and `/settle` are untrusted: each field a payment is matched on is compared
 * with the offer the facilitator issued, and any difference refuses the payment.
 */
import { toNetwork, type Offer, type PaymentRequirements } from "@svc/scheme";
import { isAddressEqual } from "viem";

/** Names the first field of `requirements` that differs from the issued `offer`, or `undefined` when all agree. */
export function requirementsMismatch(offer: Offer, requirements: PaymentRequirements): string | undefined {
  if (requirements.network !== toNetwork(offer.chainId)) return "network";
  if (!isAddressEqual(requirements.asset, offer.asset)) return "asset";
  if (!isAddressEqual(requirements.payTo, offer.payTo)) return "payTo";
  if (requirements.amount !== offer.amount.toString()) return "amount";
  if (requirements.extra.challengeNonce.toLowerCase() !== offer.challengeNonce.toLowerCase()) return "challengeNonce";
  return undefined;
}
