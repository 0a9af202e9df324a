/**
 * The cheap half of a burn secret: everything except the proof-of-work search. Kept separate so the pool can
 * compute it on the main thread (a few keccak/sha256 calls) and ship only two numbers to its worker, and so
 * a restart can recompute it from a journaled payment id.
 */
import { addressToRecipient, generalRecipientHash } from "@svc/scheme";
import { hexToBigInt, type Address, type Hex } from "viem";

import { derivePaymentSecretBase, derivePaymentTweak } from "./paymentSecrets.js";

/** The seed-derived parts of one payment's burn secret, plus the two numbers the proof-of-work search needs. */
export type BurnSecretInputs = {
  paymentId: Hex;
  tweak: Hex;
  /** `generalRecipientHash({ chainId, recipient: treasury, tweak })`, the verifier's `recipientHash`. */
  recipientHash: Hex;
  /** `recipientHash` as the field element Poseidon hashes. */
  recipientFr: bigint;
  /** Where the nonce search starts; the secret is `secretBase + nonce` mod the BN254 field. */
  secretBase: bigint;
};

/**
 * Derives tweak, recipient hash and secret base of payment `paymentId` for mints to `treasury` on `chainId`.
 *
 * @example
 * const inputs = burnSecretInputs(seed, 31337, treasury, paymentId);
 * deriveBurnAddress(inputs.recipientFr, inputs.secretBase); // the slow part, off the request path
 */
export function burnSecretInputs(seed: Hex, chainId: number, treasury: Address, paymentId: Hex): BurnSecretInputs {
  const tweak = derivePaymentTweak(seed, paymentId);
  const recipientHash = generalRecipientHash({
    chainId: BigInt(chainId),
    recipient: addressToRecipient(treasury),
    tweak,
  });
  return {
    paymentId,
    tweak,
    recipientHash,
    recipientFr: hexToBigInt(recipientHash),
    secretBase: derivePaymentSecretBase(seed, paymentId),
  };
}
