/**
 * secp256k1 signer recovery (recoverSigner: libsecp256k1) with a bounded memory of recent answers. `/verify` and
 * `/settle` of one permit payment recover the same two signatures (Permit and BurnAuthorization); recovery is the
 * largest CPU cost of the request path, so `/settle` takes the addresses `/verify` already recovered.
 *
 * The memory is keyed on the exact bytes recovery is a function of: the EIP-712 digest (which commits to the
 * domain and every signed field: token, chain, spender, value, nonce, deadline, burn address, challenge nonce,
 * payer) and the signature. A payload that differs in any signed field has another digest, so it can only
 * miss and be recovered afresh; a hit returns exactly what recovering again would return.
 */
import type { Address, Hex } from "viem";
import { recoverSigner } from "./recoverSigner.js";
import { createRecentAnswers } from "./recentAnswers.js";

/** How many recovered signers the facilitator's shared recovery keeps (a few hundred bytes each). */
export const SIGNER_RECOVERY_CAPACITY = 4096;

/** How often the recovery ran and how often a remembered signer was reused instead. */
export type SignerRecoveryCounts = { recovered: number; reused: number };

/** Recovers signers of EIP-712 digests, remembering the most recent `capacity` of them. */
export type SignerRecovery = {
  /** The address that signed `digest` with `signature`, or `undefined` when the signature does not recover. */
  recover: (digest: Hex, signature: Hex) => Promise<Address | undefined>;
  /** Counts since creation. */
  counts: () => SignerRecoveryCounts;
};

/**
 * Creates a recovery with room for `capacity` signers, evicting the least recently used first. Only
 * successful recoveries are kept, so junk signatures cannot push real ones out faster than real traffic.
 *
 * @example
 * const signers = createSignerRecovery({ capacity: 1024 });
 * const payer = await signers.recover(hashTypedData(typedData), signature);
 */
export function createSignerRecovery(options: { capacity: number }): SignerRecovery {
  const remembered = createRecentAnswers<Address>(options.capacity);
  const counts: SignerRecoveryCounts = { recovered: 0, reused: 0 };

  const recover = async (digest: Hex, signature: Hex): Promise<Address | undefined> => {
    const key = `${digest.toLowerCase()}:${signature.toLowerCase()}`;
    const known = remembered.get(key);
    if (known !== undefined) {
      counts.reused++;
      return known;
    }
    counts.recovered++;
    const signer = await recoverSigner(digest, signature);
    if (signer !== undefined) remembered.remember(key, signer);
    return signer;
  };

  return { recover, counts: () => ({ ...counts }) };
}
