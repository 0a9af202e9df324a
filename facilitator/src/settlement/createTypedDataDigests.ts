/**
 * EIP-712 digests with a bounded memory of recent answers. `/verify` and `/settle` of one permit payment rebuild
 * the same two messages (Permit and BurnAuthorization) from the same trusted offer; hashing them with viem's
 * typed-data encoder costs about a millisecond each, the largest CPU cost of a permit check after signer
 * recovery (see createSignerRecovery), so `/settle` takes the digests `/verify` already computed.
 *
 * The memory is keyed on everything the digest is a function of: the primary type, the domain and the message,
 * written out with bigints marked apart from strings. The field types are the scheme's constants for each
 * primary type. A message that differs in any field has another key, so it can only miss and be hashed afresh;
 * a hit returns exactly what hashing again would. Typed data that fails to hash is never remembered.
 */
import { hashTypedData, type Hex, type TypedDataDefinition } from "viem";
import { createRecentAnswers } from "./recentAnswers.js";

/** How many digests the facilitator's shared memory keeps (a few hundred bytes each). */
export const TYPED_DATA_DIGEST_CAPACITY = 4096;

/** How often a digest was computed and how often a remembered one was reused instead. */
export type TypedDataDigestCounts = { hashed: number; reused: number };

/** Hashes EIP-712 typed data, remembering the most recent `capacity` digests. */
export type TypedDataDigests = {
  /** The digest of `typedData`, or `undefined` when it does not hash (an integer out of range, a bad address). */
  digest: (typedData: TypedDataDefinition) => Hex | undefined;
  /** Counts since creation. */
  counts: () => TypedDataDigestCounts;
};

function keyOf(typedData: TypedDataDefinition): string {
  const { primaryType, domain, message } = typedData as { primaryType: string; domain?: unknown; message: unknown };
  return JSON.stringify([primaryType, domain ?? null, message], (_key, value: unknown) => (typeof value === "bigint" ? `${value}n` : value));
}

/**
 * Creates a memory with room for `capacity` digests, evicting the least recently used first.
 *
 * @example
 * const digests = createTypedDataDigests({ capacity: 1024 });
 * const authorizationId = digests.digest(buildBurnAuthorizationTypedData({ offer, payer }));
 */
export function createTypedDataDigests(options: { capacity: number }): TypedDataDigests {
  const remembered = createRecentAnswers<Hex>(options.capacity);
  const counts: TypedDataDigestCounts = { hashed: 0, reused: 0 };

  const digest = (typedData: TypedDataDefinition): Hex | undefined => {
    const key = keyOf(typedData);
    const known = remembered.get(key);
    if (known !== undefined) {
      counts.reused++;
      return known;
    }
    counts.hashed++;
    let hashed: Hex;
    try {
      // Hashing validates the typed data (integer ranges, addresses): data that fails it signs nothing valid.
      hashed = hashTypedData(typedData);
    } catch {
      return undefined;
    }
    remembered.remember(key, hashed);
    return hashed;
  };

  return { digest, counts: () => ({ ...counts }) };
}
