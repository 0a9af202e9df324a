/**
 * The native addon as a {@link PoseidonImplementation}. The addon takes non-negative inputs below 2^256 and
 * reduces them mod p, which is what `poseidon-lite` computes for them; anything else (negative or wider
 * inputs, which no caller here produces) goes to `poseidon-lite` itself, so results agree on every bigint.
 * At load it hashes one known input of each width both ways, and searches a short proof of work of each
 * width on the chosen path both ways, and refuses to run when any differs.
 */
import { poseidon2 as poseidonLite2, poseidon3 as poseidonLite3 } from "poseidon-lite";

import { NativePoseidonUnavailableError, PoseidonMismatchError } from "./errors.js";
import { loadNativePoseidon, type LoadNativePoseidonOptions } from "./nativePoseidon.js";
import type { PoseidonImplementation } from "./poseidonImplementation.js";
import { poseidonLiteImplementation } from "./poseidonLiteImplementation.js";

const NATIVE_INPUT_LIMIT = 1n << 256n;

const inNativeRange = (x: bigint) => x >= 0n && x < NATIVE_INPUT_LIMIT;

/**
 * Loads the addon for this thread over the field of modulus `p` (see {@link LoadNativePoseidonOptions}) and
 * checks it against `poseidon-lite`; throws {@link NativePoseidonUnavailableError} when it cannot be loaded
 * or disagrees, and `PoseidonPathUnavailableError` when the requested path is not supported here.
 *
 * @example
 * const native = createNativePoseidonImplementation(BN254_FIELD_MODULUS);
 * native.searchBurnNonce([recipientFr], secretBase, 12);
 */
export function createNativePoseidonImplementation(p: bigint, options: LoadNativePoseidonOptions = {}): PoseidonImplementation {
  const addon = loadNativePoseidon(p, options);
  // Each width has its own constants and round code, so each gets a probe; p - 1 exercises the top of the field.
  const pair: [bigint, bigint] = [p - 1n, 0x1234567890abcdefn];
  const triple: [bigint, bigint, bigint] = [p - 1n, 0x1234567890abcdefn, 0xfedcba9876543210n];
  if (addon.poseidon2(...pair) !== poseidonLite2(pair) || addon.poseidon3(...triple) !== poseidonLite3(triple)) {
    throw new NativePoseidonUnavailableError({ cause: new PoseidonMismatchError("the load-time probe hash differs") });
  }
  // The search runs on its own path (multi-lane where the processor allows): a 5-bit search from a base
  // that wraps around p crosses several lane groups for about 32 poseidon-lite hashes per width.
  for (const prefix of [[p - 1n], [0x6e727562n, p - 1n]]) {
    const base = p - 3n;
    if (addon.searchBurnNonce(prefix, base, 5) !== poseidonLiteImplementation.searchBurnNonce(prefix, base, 5)) {
      throw new NativePoseidonUnavailableError({ cause: new PoseidonMismatchError("the load-time probe search differs") });
    }
  }
  return {
    name: "native",
    path: addon.path(),
    poseidon2: (a, b) => (inNativeRange(a) && inNativeRange(b) ? addon.poseidon2(a, b) : poseidonLite2([a, b])),
    poseidon3: (a, b, c) => (inNativeRange(a) && inNativeRange(b) && inNativeRange(c) ? addon.poseidon3(a, b, c) : poseidonLite3([a, b, c])),
    searchBurnNonce: (prefix, secretBase, powBits) =>
      (prefix.length === 1 || prefix.length === 2) &&
      prefix.every(inNativeRange) &&
      inNativeRange(secretBase) &&
      Number.isInteger(powBits) &&
      powBits >= 1 &&
      powBits <= 32
        ? addon.searchBurnNonce(prefix, secretBase, powBits)
        : poseidonLiteImplementation.searchBurnNonce(prefix, secretBase, powBits),
  };
}
