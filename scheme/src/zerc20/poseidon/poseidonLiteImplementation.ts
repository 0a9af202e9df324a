/**
 * The reference implementation: `poseidon-lite` (BigInt JavaScript) and the plain proof-of-work loop. It is
 * what every faster implementation is tested against, and what runs when the native addon is unavailable.
 */
import { poseidon2 } from "poseidon-lite";

import { BN254_FIELD_MODULUS } from "../bn254.js";
import type { PoseidonImplementation } from "./poseidonImplementation.js";

/** Smallest nonce whose `poseidon2([recipientFr, (secretBase + nonce) mod p])` has bits `160 .. 160 + powBits - 1` zero. */
function searchBurnNonce(recipientFr: bigint, secretBase: bigint, powBits: number): bigint {
  const mask = (1n << BigInt(powBits)) - 1n;
  for (let nonce = 0n; ; nonce++) {
    const h = poseidon2([recipientFr, (secretBase + nonce) % BN254_FIELD_MODULUS]);
    if (((h >> 160n) & mask) === 0n) return nonce;
  }
}

/** `poseidon-lite` as a {@link PoseidonImplementation}. */
export const poseidonLiteImplementation: PoseidonImplementation = {
  name: "poseidon-lite",
  poseidon2: (a, b) => poseidon2([a, b]),
  searchBurnNonce,
};
