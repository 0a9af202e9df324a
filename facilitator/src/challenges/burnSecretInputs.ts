/**
 * The cheap half of a burn secret: everything except the proof-of-work search. Kept separate so the pool can
 * compute it on the main thread (a few keccak/sha256 calls) and ship only two numbers to its worker, and so
 * a restart can recompute it from a journaled payment id.
 */
import { addressToRecipient, generalRecipientHash, type ProtocolVersion } from "@svc/scheme";
import { hexToBigInt, type Address, type Hex } from "viem";

import { derivePaymentSecretBase, derivePaymentTweak } from "./paymentSecrets.js";

/** Where a burn address's mint goes and under which protocol version's formula it is derived. */
export type BurnTarget = {
  protocol: ProtocolVersion;
  chainId: number;
  /** `settlement.treasury`: the mint destination every recipient hash commits to. */
  treasury: Address;
};

/** The seed-derived parts of one payment's burn secret, plus the two numbers the proof-of-work search needs. */
export type BurnSecretInputs = {
  paymentId: Hex;
  protocol: ProtocolVersion;
  tweak: Hex;
  /** `generalRecipientHash({ chainId, recipient: treasury, tweak })`, the verifier's `recipientHash`. */
  recipientHash: Hex;
  /** `recipientHash` as the field element Poseidon hashes. */
  recipientFr: bigint;
  /** Where the nonce search starts; the secret is `secretBase + nonce` mod the BN254 field. */
  secretBase: bigint;
};

/**
 * Derives tweak, recipient hash and secret base of payment `paymentId` for mints to the target's treasury on
 * its chain. Tweak and secret base are the same in both protocol versions; only the search that follows differs.
 *
 * @example
 * const inputs = burnSecretInputs(seed, { protocol: "zerc20-v2", chainId: 31337, treasury }, paymentId);
 * deriveBurnAddress(zerc20Protocol(inputs.protocol), inputs.recipientFr, inputs.secretBase); // the slow part, off the request path
 */
export function burnSecretInputs(seed: Hex, target: BurnTarget, paymentId: Hex): BurnSecretInputs {
  const { tweak, recipientHash } = burnCommitment(seed, target, paymentId);
  return {
    paymentId,
    protocol: target.protocol,
    tweak,
    recipientHash,
    recipientFr: hexToBigInt(recipientHash),
    secretBase: derivePaymentSecretBase(seed, paymentId),
  };
}

/**
 * What a burn address commits its mint to: the payment's tweak and the recipient hash over the target's treasury
 * and chain. The issuer checks every address it hands out against these (two hashes, without the secret base).
 */
export function burnCommitment(seed: Hex, target: Omit<BurnTarget, "protocol">, paymentId: Hex): Pick<BurnSecretInputs, "tweak" | "recipientHash"> {
  const tweak = derivePaymentTweak(seed, paymentId);
  const recipientHash = generalRecipientHash({ chainId: BigInt(target.chainId), recipient: addressToRecipient(target.treasury), tweak });
  return { tweak, recipientHash };
}
