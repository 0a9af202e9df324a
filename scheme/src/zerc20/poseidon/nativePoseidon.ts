/**
 * Loads the native Poseidon addon built by `node-gyp` at install time (`build/Release/poseidon.node` in this
 * package) and hands it its parameters, computed from the installed `poseidon-lite`. Loading is per thread:
 * Node-API keeps the parameters in the calling thread's instance data, so each worker calls this once.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

import { NativePoseidonUnavailableError } from "./errors.js";
import { nativePoseidonParameters } from "./nativePoseidonParameters.js";
import { loadPoseidonLiteConstants } from "./poseidonLiteConstants.js";

/** What the addon exports once initialised. */
export type NativePoseidonAddon = {
  /** `Poseidon([a mod p, b mod p])` for `a`, `b` in `[0, 2^256)`; throws a `RangeError` outside. */
  poseidon2(a: bigint, b: bigint): bigint;
  /** Smallest nonce whose hash with `(secretBase + nonce) mod p` has bits `160 .. 160 + powBits - 1` all zero. */
  searchBurnNonce(recipientFr: bigint, secretBase: bigint, powBits: number): bigint;
  /** The field multiplication in use: inline mulx/adcx/adox where the processor has BMI2 and ADX, else portable C. */
  arithmetic(): NativePoseidonArithmetic;
};

/** The two field multiplications of the addon. */
export type NativePoseidonArithmetic = "mulx-adx" | "portable";

/** How to load the addon: from where, and whether to keep to the portable multiplication (tests run both). */
export type LoadNativePoseidonOptions = { addonPath?: string | undefined; portableArithmetic?: boolean | undefined };

type RawAddon = NativePoseidonAddon & { init(parameters: Uint8Array, portable: boolean): void };

/** Where `node-gyp` puts the addon: src/zerc20/poseidon and dist/zerc20/poseidon sit at the same depth below the package root. */
export const NATIVE_POSEIDON_ADDON_PATH = fileURLToPath(new URL("../../../build/Release/poseidon.node", import.meta.url));

/**
 * Loads and initialises the addon (default: the one this package built) for this thread over the field of
 * modulus `p`; throws
 * {@link NativePoseidonUnavailableError} (with the loader's error as `cause`) when it was not built or fails to load.
 *
 * @example
 * const addon = loadNativePoseidon(BN254_FIELD_MODULUS);
 * addon.poseidon2(1n, 2n);
 */
export function loadNativePoseidon(p: bigint, options: LoadNativePoseidonOptions = {}): NativePoseidonAddon {
  let addon: RawAddon;
  try {
    addon = createRequire(import.meta.url)(options.addonPath ?? NATIVE_POSEIDON_ADDON_PATH) as RawAddon;
    addon.init(nativePoseidonParameters(loadPoseidonLiteConstants(), p), options.portableArithmetic === true);
  } catch (error) {
    throw new NativePoseidonUnavailableError({ cause: error });
  }
  return { poseidon2: addon.poseidon2, searchBurnNonce: addon.searchBurnNonce, arithmetic: addon.arithmetic };
}
