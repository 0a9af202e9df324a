/**
 * Which Poseidon computes burn addresses: the native addon when it was built and loads (`auto`, the default),
 * or `poseidon-lite`, chosen with `SVC_POSEIDON=auto|native|js`; and the addon's search path, chosen with
 * `SVC_POSEIDON_PATH=auto|avx512-ifma|avx2|mulx-adx|portable` (`auto`: the fastest this processor supports).
 * All give bit-identical results (proven by the equality tests); the choice only changes speed. `native`
 * makes a missing addon an error instead of a silent fallback; a named path the processor lacks is an
 * error under any selection but `js` (which does not use the addon).
 */
import { z } from "zod";

import { InvalidPoseidonPathError, InvalidPoseidonSelectionError, NativePoseidonUnavailableError } from "./errors.js";
import { BN254_FIELD_MODULUS } from "../bn254.js";
import { type NativePoseidonPath, NativePoseidonPathSchema, type NativePoseidonPathRequest } from "./nativePoseidon.js";
import { createNativePoseidonImplementation } from "./nativePoseidonImplementation.js";
import { poseidonLiteImplementation } from "./poseidonLiteImplementation.js";

/** The environment variable that forces a Poseidon implementation. */
export const POSEIDON_SELECTION_VARIABLE = "SVC_POSEIDON";

/** The environment variable that forces the addon's search path (tests, and benchmarks comparing paths). */
export const POSEIDON_PATH_VARIABLE = "SVC_POSEIDON_PATH";

/** `auto` (native when available, else `poseidon-lite`), `native` (required) or `js` (`poseidon-lite`). */
export const PoseidonSelectionSchema = z.enum(["auto", "native", "js"]);

/** A parsed `SVC_POSEIDON` value. */
export type PoseidonSelection = z.infer<typeof PoseidonSelectionSchema>;

/** Names an implementation in logs and in `facilitator check`. */
export type PoseidonImplementationName = "native" | "poseidon-lite";

/** Two- and three-input circom Poseidon over BN254 and the burn-address proof-of-work search built on them. */
export type PoseidonImplementation = {
  readonly name: PoseidonImplementationName;
  /** For the native addon: the path its proof-of-work search runs on. */
  readonly path?: NativePoseidonPath | undefined;
  /** `poseidon2([a, b])` exactly as `poseidon-lite` computes it. */
  poseidon2(a: bigint, b: bigint): bigint;
  /** `poseidon3([a, b, c])` exactly as `poseidon-lite` computes it. */
  poseidon3(a: bigint, b: bigint, c: bigint): bigint;
  /** Smallest nonce n >= 0 whose Poseidon([...prefix, (secretBase + n) mod p]) has bits 160 .. 160 + powBits - 1 zero; prefix has 1 or 2 elements. */
  searchBurnNonce(prefix: readonly bigint[], secretBase: bigint, powBits: number): bigint;
};

/** The implementation in use and, when `auto` fell back to `poseidon-lite`, why. */
export type PoseidonChoice = {
  implementation: PoseidonImplementation;
  selection: PoseidonSelection;
  /** Set when `auto` wanted the addon but could not use it. */
  fallback?: NativePoseidonUnavailableError | undefined;
};

/**
 * Reads `SVC_POSEIDON` (unset or empty means `auto`); throws {@link InvalidPoseidonSelectionError}, which
 * names the variable but never the value.
 */
export function parsePoseidonSelection(env: Readonly<Record<string, string | undefined>>): PoseidonSelection {
  const raw = env[POSEIDON_SELECTION_VARIABLE];
  if (raw === undefined || raw === "") return "auto";
  const parsed = PoseidonSelectionSchema.safeParse(raw);
  if (!parsed.success) throw new InvalidPoseidonSelectionError({ variable: POSEIDON_SELECTION_VARIABLE });
  return parsed.data;
}

/**
 * Reads `SVC_POSEIDON_PATH` (unset or empty means `auto`); throws {@link InvalidPoseidonPathError}, which
 * names the variable but never the value.
 */
export function parsePoseidonPath(env: Readonly<Record<string, string | undefined>>): NativePoseidonPathRequest {
  const raw = env[POSEIDON_PATH_VARIABLE];
  if (raw === undefined || raw === "" || raw === "auto") return "auto";
  const parsed = NativePoseidonPathSchema.safeParse(raw);
  if (!parsed.success) throw new InvalidPoseidonPathError({ variable: POSEIDON_PATH_VARIABLE });
  return parsed.data;
}

/**
 * How to load the addon: the search path (`SVC_POSEIDON_PATH`), and, for tests only, another addon file
 * (to prove the fallback).
 */
export type SelectPoseidonOptions = { addonPath?: string | undefined; path?: NativePoseidonPathRequest | undefined };

/**
 * Builds the implementation `selection` asks for in this thread; `native` throws
 * {@link NativePoseidonUnavailableError} when the addon is missing, `auto` falls back to `poseidon-lite`;
 * both throw `PoseidonPathUnavailableError` for a named path this processor lacks.
 *
 * @example
 * const { implementation } = selectPoseidon("auto");
 * implementation.name; // "native" where the addon was built
 */
export function selectPoseidon(selection: PoseidonSelection, options: SelectPoseidonOptions = {}): PoseidonChoice {
  if (selection === "js") return { implementation: poseidonLiteImplementation, selection };
  try {
    return { implementation: createNativePoseidonImplementation(BN254_FIELD_MODULUS, options), selection };
  } catch (error) {
    if (selection === "native" || !(error instanceof NativePoseidonUnavailableError)) throw error;
    return { implementation: poseidonLiteImplementation, selection, fallback: error };
  }
}

let processChoice: PoseidonChoice | undefined;

/**
 * The process-wide choice, made once from `process.env` on first use (throws like {@link parsePoseidonSelection},
 * {@link parsePoseidonPath} and {@link selectPoseidon}). Worker threads inherit the environment, so every
 * thread makes the same choice.
 */
export function poseidonChoice(): PoseidonChoice {
  processChoice ??= selectPoseidon(parsePoseidonSelection(process.env), { path: parsePoseidonPath(process.env) });
  return processChoice;
}
