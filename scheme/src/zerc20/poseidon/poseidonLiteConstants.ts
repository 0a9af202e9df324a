/**
 * The round constants and MDS matrices of circom Poseidon, read from the installed `poseidon-lite` itself,
 * so a faster implementation hashes with exactly the parameters of the reference and carries no copy of
 * its own. `poseidon-lite` does not export its constants, so the file beside its `poseidon<inputs>` entry is
 * loaded by absolute path; its shape is checked before use.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

import { PoseidonParametersError } from "./errors.js";

/** The state widths the native addon implements: two inputs (`poseidon2`, t = 3) and three (`poseidon3`, t = 4). */
export const NATIVE_POSEIDON_WIDTHS = [3, 4] as const;

/** One of {@link NATIVE_POSEIDON_WIDTHS}: the capacity element plus the inputs. */
export type PoseidonWidth = (typeof NATIVE_POSEIDON_WIDTHS)[number];

/** Full rounds of circom-compatible Poseidon (half before the partial rounds, half after). */
export const POSEIDON_FULL_ROUNDS = 8;

/** Round constants (`width` per round, in round order) and the MDS matrix (`mds[row][column]`) as field elements. */
export type PoseidonConstants = {
  width: PoseidonWidth;
  roundConstants: bigint[];
  mds: bigint[][];
  fullRounds: number;
  partialRounds: number;
};

/** Decodes `poseidon-lite`'s base64 big-endian encoding of one field element. */
function decodeElement(encoded: unknown): bigint {
  if (typeof encoded !== "string") throw new PoseidonParametersError("a constant is not a string");
  const hex = Buffer.from(encoded, "base64").toString("hex");
  return hex === "" ? 0n : BigInt(`0x${hex}`);
}

/**
 * Loads the constants of width `width` (`width - 1` inputs) from the installed `poseidon-lite`; the
 * partial-round count follows from the number of round constants.
 *
 * @example
 * const { roundConstants, mds, partialRounds } = loadPoseidonLiteConstants(3); // 57 partial rounds
 */
export function loadPoseidonLiteConstants(width: PoseidonWidth): PoseidonConstants {
  const inputs = width - 1;
  const require = createRequire(import.meta.url);
  const entry = require.resolve(`poseidon-lite/poseidon${inputs}`);
  const module: unknown = require(join(dirname(entry), "constants", `${inputs}.js`));
  const raw = (module as { default?: { C?: unknown; M?: unknown } } | undefined)?.default;
  if (!Array.isArray(raw?.C) || !Array.isArray(raw?.M)) throw new PoseidonParametersError("unexpected constants module shape");
  const roundConstants = raw.C.map(decodeElement);
  const mds = raw.M.map((row: unknown) => {
    if (!Array.isArray(row) || row.length !== width) throw new PoseidonParametersError("unexpected MDS row");
    return row.map(decodeElement);
  });
  if (mds.length !== width) throw new PoseidonParametersError("unexpected MDS size");
  const rounds = roundConstants.length / width;
  if (!Number.isInteger(rounds) || rounds <= POSEIDON_FULL_ROUNDS) {
    throw new PoseidonParametersError("unexpected number of round constants");
  }
  return { width, roundConstants, mds, fullRounds: POSEIDON_FULL_ROUNDS, partialRounds: rounds - POSEIDON_FULL_ROUNDS };
}
