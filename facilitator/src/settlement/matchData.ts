/**
 * The fields a payment is matched on. Requirements arriving at `/verify` and `/settle` are untrusted: each of
 * these is compared with what the facilitator issued, and any difference refuses the payment.
 */
import type { Network, PaymentRequirements } from "@svc/scheme";
import { isAddressEqual, type Address, type Hex } from "viem";

/** What a challenge record (or a journaled entry) is compared on. */
export type MatchData = {
  challengeNonce: Hex;
  network: Network;
  asset: Address;
  payTo: Address;
  amount: bigint;
};

/** Names the first field of `requirements` that differs from `match`, or `undefined` when all agree. */
export function requirementsMismatch(match: MatchData, requirements: PaymentRequirements): string | undefined {
  if (requirements.network !== match.network) return "network";
  if (!isAddressEqual(requirements.asset, match.asset)) return "asset";
  if (!isAddressEqual(requirements.payTo, match.payTo)) return "payTo";
  if (requirements.amount !== match.amount.toString()) return "amount";
  if (requirements.extra.challengeNonce.toLowerCase() !== match.challengeNonce.toLowerCase()) return "challengeNonce";
  return undefined;
}
