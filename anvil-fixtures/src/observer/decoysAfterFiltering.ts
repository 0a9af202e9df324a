/**
 * What the indexer's operator learns from one `/proofs` request: its leaves are the minted burn's own leaf
 * mixed with decoys, and the operator can read every leaf's sender and value from the chain. It drops the
 * leaves that cannot be the payment about to be minted: another value than the minted leaf's (a mint consumes
 * one burn address's exact value), a token mint (sent from the zero address), a transfer from the
 * facilitator's own accounts (treasury, relayer, minter: fee sweeps and the like), or a funding transfer (the
 * accounts that hand payers their tokens). The decoys left are the other leaves that survive; the target is
 * at least 3 in every request that has candidates, i.e. where the chain below the request's root holds at least
 * 3 leaves that survive the same filter (fewer, and no choice of decoys could reach 3: the facilitator says so
 * with `decoys_short`).
 */
import { zeroAddress, type Address } from "viem";
import type { ObservedLeaf } from "./readObservedChain.js";

/** One `/proofs` request as the indexer received it. */
export type ProofRequest = { targetIndex: bigint; leafIndices: bigint[] };

/** Parameters of {@link decoysAfterFiltering}. */
export type DecoysAfterFilteringParameters = {
  requests: readonly ProofRequest[];
  /** Every leaf of the range, by index (`readObservedChain`'s `leaves`). */
  leaves: ReadonlyMap<bigint, ObservedLeaf>;
  /** The leaf indices of the burns that were minted (from the ground truth). */
  mintedLeaves: ReadonlySet<bigint>;
  /** The facilitator's accounts and the funding accounts, whose transfers are dropped. */
  knownSenders: readonly Address[];
};

/** One request's outcome, per minted leaf it carries. */
export type RequestDecoys = {
  request: ProofRequest;
  mintedLeaf: bigint;
  /** Leaves of the request other than the minted ones. */
  decoys: number;
  /** Decoys left after dropping other values, token mints and known senders. */
  decoysLeft: number;
  /** Leaves below the request's root, other than the minted one, that survive the same filter. */
  candidates: number;
};

/**
 * Per request and minted leaf it carries, the decoys before and after the operator's filter. Requests that
 * carry no minted leaf (a payment minted outside the range) are left out.
 */
export function decoysAfterFiltering(parameters: DecoysAfterFilteringParameters): RequestDecoys[] {
  const known = new Set([zeroAddress, ...parameters.knownSenders].map((address) => address.toLowerCase()));
  const plausible = (leaf: ObservedLeaf | undefined, value: bigint | undefined): boolean =>
    leaf !== undefined && leaf.value === value && !known.has(leaf.from.toLowerCase());
  return parameters.requests.flatMap((request) => {
    const minted = request.leafIndices.filter((leaf) => parameters.mintedLeaves.has(leaf));
    const others = request.leafIndices.filter((leaf) => !parameters.mintedLeaves.has(leaf));
    return minted.map((mintedLeaf) => {
      const value = parameters.leaves.get(mintedLeaf)?.value;
      const left = others.filter((leaf) => plausible(parameters.leaves.get(leaf), value));
      // The other minted leaves of a batch are plausible sources too, for anyone who cannot tell them apart.
      const batch = minted.filter((other) => other !== mintedLeaf && parameters.leaves.get(other)?.value === value);
      let candidates = 0;
      for (const leaf of parameters.leaves.values()) {
        if (leaf.index < request.targetIndex && leaf.index !== mintedLeaf && plausible(leaf, value)) candidates++;
      }
      return { request, mintedLeaf, decoys: others.length + minted.length - 1, decoysLeft: left.length + batch.length, candidates };
    });
  });
}
