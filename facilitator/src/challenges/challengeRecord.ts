/**
 * What the facilitator remembers about one offer. The wire sees only the offer fields; the burn secret
 * (payment id, tweak, secret) never leaves this process: it is what later opens the burn for the mint.
 */
import type { Network } from "@svc/scheme";
import type { Address, Hex } from "viem";
import type { Quote } from "./quote.js";

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

/** One issued challenge: the offer's fields plus what only the facilitator knows. */
export type ChallengeRecord = {
  challengeNonce: Hex;
  network: Network;
  chainId: number;
  /** The zERC20 token (`asset` of the offer). */
  asset: Address;
  /** The one-time burn address (`payTo` of the offer). */
  payTo: Address;
  /** Quoted amount in base units (`amount` of the offer). */
  amount: bigint;
  /** How `amount` was priced: list price, fee, payout. */
  quote: Quote;
  /** PermitBurner address when the gasless path is offered. */
  helper: Address | undefined;
  /** Unix seconds bounding the permit and burn-bind signatures; never after `expiresAt`. */
  deadline: number | undefined;
  /** Unix seconds. */
  issuedAt: number;
  /** Unix seconds; the offer is refused after it. */
  expiresAt: number;
  /**
   * The burn's private half while this process issued it; `undefined` for a challenge restored from the
   * journal after a restart, whose secret is re-derived from the seed and the nonce when the mint needs it.
   */
  burn: BurnSecret | undefined;
};
