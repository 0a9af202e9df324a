/**
 * Burn-address derivation under one protocol version: `h = Poseidon(...prefix, s)` (see
 * {@link Zerc20Protocol.burnAddressPrefix}), accepted only when the version's proof-of-work bits above bit 160
 * of `h` are zero (protocol: it makes address-collision grinding expensive); the burn address is the low 160
 * bits of `h`. Pure math: the seed and secrets stay with the facilitator that calls it.
 */
import { getAddress, type Address } from "viem";

import { BN254_FIELD_MODULUS } from "./bn254.js";
import { PoseidonMismatchError } from "./poseidon/errors.js";
import { poseidonChoice } from "./poseidon/poseidonImplementation.js";
import type { Zerc20Protocol } from "./protocol/zerc20Protocol.js";

export { BN254_FIELD_MODULUS };

const ADDRESS_MASK = (1n << 160n) - 1n;

/** A derived burn address with the secret that opens it. */
export type BurnAddressDerivation = { burnAddress: Address; secret: bigint; nonce: bigint };

/** Whether `h` satisfies `protocol`'s proof of work. */
export function meetsBurnAddressPow(protocol: Zerc20Protocol, h: bigint): boolean {
  return ((h >> 160n) & ((1n << BigInt(protocol.burnAddressPowBits)) - 1n)) === 0n;
}

/** Low 160 bits of `h` as a checksummed address. */
export function burnAddressFromHash(h: bigint): Address {
  return getAddress(`0x${(h & ADDRESS_MASK).toString(16).padStart(40, "0")}`);
}

/**
 * Searches the smallest `nonce` such that the burn-address hash of `(secretBase + nonce) mod p` meets
 * `protocol`'s proof of work, with the process's Poseidon implementation (`SVC_POSEIDON`), and re-checks the
 * found hash with `poseidon-lite`. About 2^bits hashes on average (v1 4,096, v2 65,536): callers on a
 * request path should derive ahead of time.
 *
 * @example
 * deriveBurnAddress(zerc20Protocol("zerc20-v2"), recipientFr, secretBase).burnAddress;
 */
export function deriveBurnAddress(protocol: Zerc20Protocol, recipientFr: bigint, secretBase: bigint): BurnAddressDerivation {
  const nonce = poseidonChoice().implementation.searchBurnNonce(protocol.burnAddressPrefix(recipientFr), secretBase, protocol.burnAddressPowBits);
  const secret = (secretBase + nonce) % BN254_FIELD_MODULUS;
  const h = protocol.burnAddressHash(recipientFr, secret);
  if (!meetsBurnAddressPow(protocol, h)) throw new PoseidonMismatchError("the found nonce misses the proof of work");
  return { burnAddress: burnAddressFromHash(h), secret, nonce };
}

/** The burn address `secret` opens for `recipientFr` under `protocol`, or `undefined` when the secret fails the proof of work. */
export function openBurnAddress(protocol: Zerc20Protocol, recipientFr: bigint, secret: bigint): Address | undefined {
  const h = protocol.burnAddressHash(recipientFr, secret);
  return meetsBurnAddressPow(protocol, h) ? burnAddressFromHash(h) : undefined;
}
