/**
 * Per-payment burn secrets, from the seed and a payment id (the challenge nonce), as zerc20-facts.md
 * describes: `secretBase = keccak256("psec" || seed || id) mod BN254_FIELD_MODULUS` and
 * `tweak = keccak256("ptwk" || seed || id)`. The tags are fixed-length, so `tag || seed || id` cannot be
 * re-split into another tag's input, and the two values of one payment are unrelated. Deterministic on
 * purpose: after a restart the facilitator re-derives a burn address's secret from the journal's id.
 */
import { BN254_FIELD_MODULUS } from "@svc/scheme";
import { concat, hexToBigInt, keccak256, toHex, type Hex } from "viem";

/** Domain tag of the secret base. */
export const PAYMENT_SECRET_TAG = "psec";

/** Domain tag of the tweak. */
export const PAYMENT_TWEAK_TAG = "ptwk";

/** The secret base of payment `paymentId`, a BN254 field element; the proof-of-work nonce is added to it later. */
export function derivePaymentSecretBase(seed: Hex, paymentId: Hex): bigint {
  return hexToBigInt(keccak256(concat([toHex(PAYMENT_SECRET_TAG), seed, paymentId]))) % BN254_FIELD_MODULUS;
}

/** The 32-byte tweak of payment `paymentId`: fresh per burn address, so each gets its own recipient hash. */
export function derivePaymentTweak(seed: Hex, paymentId: Hex): Hex {
  return keccak256(concat([toHex(PAYMENT_TWEAK_TAG), seed, paymentId]));
}
