/**
 * The Poseidon implementation and search path burn addresses derive with, chosen from `SVC_POSEIDON` and
 * `SVC_POSEIDON_PATH` in one place, so `start` and `check` decide alike. A forced path the processor lacks
 * becomes {@link UnsupportedPoseidonPathError}, which names the variable (the scheme's own error names the path).
 */
import {
  type NativePoseidonPathRequest,
  parsePoseidonPath,
  parsePoseidonSelection,
  POSEIDON_PATH_VARIABLE,
  type PoseidonChoice,
  PoseidonPathUnavailableError,
  selectPoseidon,
} from "@svc/scheme";

import type { Environment } from "../config/parseSecrets.js";
import { UnsupportedPoseidonPathError } from "./errors.js";

/** The scheme's choice plus the path `SVC_POSEIDON_PATH` asked for (`auto` when unset). */
export type ChosenPoseidon = PoseidonChoice & { requestedPath: NativePoseidonPathRequest };

/**
 * Chooses as the scheme's process-wide `poseidonChoice()` does, from `env`. Throws `InvalidPoseidonSelectionError`,
 * `InvalidPoseidonPathError` (even under `js`: a bad value is a mistake whatever it selects),
 * `NativePoseidonUnavailableError` or {@link UnsupportedPoseidonPathError}. `select` is the scheme's selector; a
 * test passes another to stand in for a processor that lacks a path.
 *
 * @example
 * const { implementation } = choosePoseidon(process.env);
 * implementation.path; // "avx512-ifma" on a processor with AVX-512 IFMA
 */
export function choosePoseidon(env: Environment, select: typeof selectPoseidon = selectPoseidon): ChosenPoseidon {
  const selection = parsePoseidonSelection(env);
  const requestedPath = parsePoseidonPath(env);
  try {
    return { ...select(selection, { path: requestedPath }), requestedPath };
  } catch (error) {
    if (error instanceof PoseidonPathUnavailableError) throw new UnsupportedPoseidonPathError({ variable: POSEIDON_PATH_VARIABLE, cause: error });
    throw error;
  }
}
