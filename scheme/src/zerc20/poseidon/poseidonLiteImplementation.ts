/**
 * The reference implementation: `poseidon-lite` (BigInt JavaScript) and the plain proof-of-work loop. It is
 * what every faster implementation is tested against, and what runs when the native addon is unavailable.
 */
import { poseidon2, poseidon3 } from "poseidon-lite";

import { BN254_FIELD_MODULUS } from "../bn254.js";
import { PoseidonInputError } from "./errors.js";
import type { PoseidonImplementation } from "./poseidonImplementation.js";

/** Smallest nonce whose `Poseidon([...prefix, (secretBase + nonce) mod p])` has bits `160 .. 160 + powBits - 1` zero. */
function searchBurnNonce(prefix: readonly bigint[], secretBase: bigint, powBits: number): bigint {
  const hash = prefix.length === 1 ? poseidon2 : prefix.length === 2 ? poseidon3 : undefined;
  if (hash === undefined) throw new PoseidonInputError("a burn-nonce prefix has one or two elements");
  const mask = (1n << BigInt(powBits)) - 1n;
  for (let nonce = 0n; ; nonce++) {
    const h = hash([...prefix, (secretBase + nonce) % BN254_FIELD_MODULUS]);
    if (((h >> 160n) & mask) === 0n) return nonce;
  }
}

/** `poseidon-lite` as a {@link PoseidonImplementation}. */
export const poseidonLiteImplementation: PoseidonImplementation = {
  name: "poseidon-lite",
  poseidon2: (a, b) => poseidon2([a, b]),
  poseidon3: (a, b, c) => poseidon3([a, b, c]),
  searchBurnNonce,
};
