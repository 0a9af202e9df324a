/**
 * Loads the native Poseidon addon built by `node-gyp` at install time (`build/Release/poseidon.node` in this
 * package) and hands it its parameters for widths 3 and 4, computed from the installed `poseidon-lite`.
 * Loading is per thread: Node-API keeps the parameters in the calling thread's instance data, so each
 * worker calls this once. The search path is not per thread: `init` returns functions bound to the one it
 * chose, so loading another beside the default (as the tests do) leaves the first as it was.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

import { z } from "zod";

import { NativePoseidonUnavailableError, PoseidonPathUnavailableError } from "./errors.js";
import { nativePoseidonParameters } from "./nativePoseidonParameters.js";
import { loadPoseidonLiteConstants, NATIVE_POSEIDON_WIDTHS } from "./poseidonLiteConstants.js";

/** What `init` returns: the functions, bound to the search path it chose, over this thread's parameters. */
export type NativePoseidonAddon = {
  /** `Poseidon([a mod p, b mod p])` for `a`, `b` in `[0, 2^256)`; throws a `RangeError` outside. */
  poseidon2(a: bigint, b: bigint): bigint;
  /** `Poseidon([a mod p, b mod p, c mod p])` for `a`, `b`, `c` in `[0, 2^256)`; throws a `RangeError` outside. */
  poseidon3(a: bigint, b: bigint, c: bigint): bigint;
  /** Smallest nonce whose `Poseidon([...prefix, (secretBase + nonce) mod p])` (prefix of 1 or 2) has bits `160 .. 160 + powBits - 1` all zero. */
  searchBurnNonce(prefix: readonly bigint[], secretBase: bigint, powBits: number): bigint;
  /** The search path in use. */
  path(): NativePoseidonPath;
};

/**
 * The addon's proof-of-work search paths, fastest first (the order `auto` prefers them in): sixteen lanes of
 * AVX-512 IFMA, one nonce at a time with inline mulx/adcx/adox (BMI2 + ADX), four lanes of AVX2 (for
 * processors without ADX), and portable C. Single hashes run on mulx/adx wherever the processor has it,
 * except on `portable`.
 */
export const NativePoseidonPathSchema = z.enum(["avx512-ifma", "mulx-adx", "avx2", "portable"]);

/** One search path of the addon. */
export type NativePoseidonPath = z.infer<typeof NativePoseidonPathSchema>;

/** `auto` (the fastest this processor supports) or one path, which must then be supported. */
export type NativePoseidonPathRequest = "auto" | NativePoseidonPath;

/** How to load the addon: from where, and which path (tests force each one). */
export type LoadNativePoseidonOptions = { addonPath?: string | undefined; path?: NativePoseidonPathRequest | undefined };

type RawAddon = { init(parameters: Uint8Array[], path: NativePoseidonPathRequest): NativePoseidonAddon };

/** Where `node-gyp` puts the addon: src/zerc20/poseidon and dist/zerc20/poseidon sit at the same depth below the package root. */
export const NATIVE_POSEIDON_ADDON_PATH = fileURLToPath(new URL("../../../build/Release/poseidon.node", import.meta.url));

/** The code the addon throws when a requested path is not supported here. */
const PATH_UNAVAILABLE_CODE = "ERR_POSEIDON_PATH_UNAVAILABLE";

/**
 * Loads and initialises the addon (default: the one this package built) for this thread over the field of
 * modulus `p`; throws {@link PoseidonPathUnavailableError} when the requested path is not supported by this
 * processor, and {@link NativePoseidonUnavailableError} (with the loader's error as `cause`) when the addon
 * was not built or fails to load.
 *
 * @example
 * const addon = loadNativePoseidon(BN254_FIELD_MODULUS);
 * addon.poseidon2(1n, 2n);
 */
export function loadNativePoseidon(p: bigint, options: LoadNativePoseidonOptions = {}): NativePoseidonAddon {
  const requested = options.path ?? "auto";
  let bound: NativePoseidonAddon;
  try {
    const addon = createRequire(import.meta.url)(options.addonPath ?? NATIVE_POSEIDON_ADDON_PATH) as RawAddon;
    const blocks = NATIVE_POSEIDON_WIDTHS.map((width) => nativePoseidonParameters(loadPoseidonLiteConstants(width), p));
    bound = addon.init(blocks, requested);
  } catch (error) {
    if (error instanceof Error && (error as { code?: unknown }).code === PATH_UNAVAILABLE_CODE) {
      throw new PoseidonPathUnavailableError({ path: requested });
    }
    throw new NativePoseidonUnavailableError({ cause: error });
  }
  return { poseidon2: bound.poseidon2, poseidon3: bound.poseidon3, searchBurnNonce: bound.searchBurnNonce, path: bound.path };
}
