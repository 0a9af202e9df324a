/**
 * What the facilitator remembers about one offer. The wire sees only the `Offer` fields; the burn secret
 * (payment id, tweak, secret) never leaves this process: it is what later opens the burn for the mint.
 */
import type { Offer, ProtocolVersion } from "@svc/scheme";
import type { Address, Hex } from "viem";

import type { PricedOffer } from "./quote.js";

/** The private half of a one-time burn address. */
export type BurnSecret = {
  /** Random 32-byte id the secret base and tweak derive from (with the seed). */
  paymentId: Hex;
  /** Per-payment tweak of the general recipient, so each burn address has its own recipient hash. */
  tweak: Hex;
  /** Poseidon secret that met the proof of work (secret base + nonce). */
  secret: bigint;
  /** `hash(chainId, treasury, tweak)`: the verifier's `recipientHash`. */
  recipientHash: Hex;
  /** The burn address itself: low 160 bits of `Poseidon(recipientHash, secret)`. */
  burnAddress: Address;
};

/**
 * One issued challenge: the offer, how its amount was priced and when it was issued, and its burn secret. A
 * challenge restored from the journal has no secret (`burn` is `undefined`); settlement never reads it.
 */
export type ChallengeRecord = Offer & {
  /** The protocol version `payTo` was derived under; the payment is finalized under it, whatever the daemon runs later. */
  protocol: ProtocolVersion;
  /** How `amount` was priced: list price, fee, payout (its `extraFee` is the offer's `fee`). */
  quote: PricedOffer;
  /** Unix seconds. */
  issuedAt: number;
  /**
   * The burn's private half while this process issued it; `undefined` for a challenge restored from the
   * journal after a restart, whose secret is re-derived from the seed and the nonce when the mint needs it.
   */
  burn: BurnSecret | undefined;
};
