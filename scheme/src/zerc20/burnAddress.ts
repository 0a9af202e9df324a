/**
 * Burn-address derivation: `h = Poseidon(recipientFr, secret)`, accepted only when bits 160..171 of `h` are
 * zero (a 12-bit proof of work that makes address-collision grinding expensive); the burn address is the
 * low 160 bits of `h`. Pure math: the seed and secrets stay with the facilitator that calls it.
 */
import { poseidon2 } from "poseidon-lite";
import { getAddress, type Address } from "viem";

import { PoseidonMismatchError } from "./poseidon/errors.js";
import { BN254_FIELD_MODULUS } from "./bn254.js";
import { poseidonChoice } from "./poseidon/poseidonImplementation.js";

export { BN254_FIELD_MODULUS };

/** Bits of proof of work a burn address carries (bits 160..171 of the Poseidon hash are zero). */
export const BURN_ADDRESS_POW_BITS = 12;

const ADDRESS_MASK = (1n << 160n) - 1n;
const POW_MASK = (1n << BigInt(BURN_ADDRESS_POW_BITS)) - 1n;

/** A derived burn address with the secret that opens it. */
export type BurnAddressDerivation = { burnAddress: Address; secret: bigint; nonce: bigint };

/** `Poseidon(recipientFr, secret)`, the hash a burn address is cut from; always `poseidon-lite`, the reference. */
export function burnAddressHash(recipientFr: bigint, secret: bigint): bigint {
  return poseidon2([recipientFr, secret]);
}

/** Whether `h` satisfies the proof of work. */
export function meetsBurnAddressPow(h: bigint): boolean {
  return ((h >> 160n) & POW_MASK) === 0n;
}

/** Low 160 bits of `h` as a checksummed address. */
export function burnAddressFromHash(h: bigint): Address {
  return getAddress(`0x${(h & ADDRESS_MASK).toString(16).padStart(40, "0")}`);
}

/**
 * Searches the smallest `nonce` such that `Poseidon(recipientFr, secretBase + nonce)` meets the proof of
 * work, with the process's Poseidon implementation (`SVC_POSEIDON`), and re-checks the found hash with
 * `poseidon-lite`. About 4096 Poseidon hashes on average: callers on a request path should derive ahead of time.
 */
export function deriveBurnAddress(recipientFr: bigint, secretBase: bigint): BurnAddressDerivation {
  const nonce = poseidonChoice().implementation.searchBurnNonce([recipientFr], secretBase, BURN_ADDRESS_POW_BITS);
  const secret = (secretBase + nonce) % BN254_FIELD_MODULUS;
  const h = burnAddressHash(recipientFr, secret);
  if (!meetsBurnAddressPow(h)) throw new PoseidonMismatchError("the found nonce misses the proof of work");
  return { burnAddress: burnAddressFromHash(h), secret, nonce };
}
