/**
 * The signer of a 32-byte digest, recovered with libsecp256k1 (the `secp256k1` package's native build) instead of
 * viem's `recoverAddress` (`@noble/curves`), which is several times slower and the largest CPU cost of a permit
 * payment. The answer is viem's for every input: `undefined` exactly where viem throws, the same checksummed
 * address everywhere else (recoverSigner.test.ts compares the two).
 *
 * Only the form every real payment has, a 32-byte hex digest and a 65-byte hex signature, takes the native path;
 * any other string goes to viem itself, whose handling of it (a non-hex string is read as its UTF-8 bytes, a digest
 * of another length is truncated or widened by `@noble/curves`) is not worth reproducing for junk.
 */
import { createRequire } from "node:module";
import { type Address, type Hex, recoverAddress } from "viem";
import { publicKeyToAddress } from "viem/accounts";

/** libsecp256k1's `secp256k1_ecdsa_recover` as the package's binding exposes it; throws when recovery fails. */
type NativeRecover = (signature: Uint8Array, recoveryId: number, digest: Uint8Array, compressed: boolean) => Uint8Array;

/** Which implementation recovers signers in this process. */
export type SignerRecoveryImplementation = "libsecp256k1" | "@noble/curves";

const nativeRecover = loadNativeRecover();

/** `libsecp256k1` when the native build loaded, else `@noble/curves` (viem's own recovery). */
export const signerRecoveryImplementation: SignerRecoveryImplementation = nativeRecover === undefined ? "@noble/curves" : "libsecp256k1";

const DIGEST = /^0x[0-9a-fA-F]{64}$/;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/**
 * The address that signed `digest` with `signature` (r ‖ s ‖ v, v one of 0, 1, 27, 28), or `undefined` when viem's
 * `recoverAddress` would throw. High-s signatures recover, as they do in viem and in `ecrecover`.
 *
 * @example
 * const payer = await recoverSigner(hashTypedData(typedData), signature);
 */
export async function recoverSigner(digest: Hex, signature: Hex): Promise<Address | undefined> {
  if (nativeRecover === undefined || !DIGEST.test(digest) || !SIGNATURE.test(signature)) {
    return recoverAddress({ hash: digest, signature }).catch(() => undefined);
  }
  const recoveryId = toRecoveryId(Number.parseInt(signature.slice(130), 16));
  if (recoveryId === undefined) return undefined;
  let publicKey: Uint8Array;
  try {
    // libsecp256k1 refuses r or s of 0 or at least n and a point at infinity, as `@noble/curves` does, and
    // reduces the digest modulo n as `@noble/curves` does.
    publicKey = nativeRecover(Buffer.from(signature.slice(2, 130), "hex"), recoveryId, Buffer.from(digest.slice(2), "hex"), false);
  } catch {
    return undefined;
  }
  return publicKeyToAddress(`0x${Buffer.from(publicKey).toString("hex")}`);
}

/** viem's `toRecoveryBit`: any other v makes viem throw. */
function toRecoveryId(v: number): 0 | 1 | undefined {
  if (v === 0 || v === 27) return 0;
  if (v === 1 || v === 28) return 1;
  return undefined;
}

function loadNativeRecover(): NativeRecover | undefined {
  try {
    // `secp256k1/bindings` is the native build alone; the package's main entry would fall back to `elliptic`,
    // slower than the `@noble/curves` path it replaces.
    const bindings = createRequire(import.meta.url)("secp256k1/bindings") as { ecdsaRecover: NativeRecover };
    return (signature, recoveryId, digest, compressed) => bindings.ecdsaRecover(signature, recoveryId, digest, compressed);
  } catch {
    return undefined;
  }
}
