/**
 * One run scored as the observer who knows the policy would see it: the chain's burns, mints and leaves, the
 * `/proofs` requests the indexer received, and the ground truth to score them. The suite asserts on the
 * result, the bench reports it and the demo prints it.
 */
import type { Address } from "viem";
import { decoysAfterFiltering, type ProofRequest } from "./decoysAfterFiltering.js";
import type { ObservedChain } from "./readObservedChain.js";
import { observerFigures, scoreMints, type GroundTruthPair, type MintScore, type ObserverFigures, type ObserverPolicy } from "./scoreMints.js";

/** Parameters of {@link scoreRun}. */
export type ScoreRunParameters = {
  observed: ObservedChain;
  policy: ObserverPolicy;
  truth: readonly GroundTruthPair[];
  /** The `/proofs` requests of the run; absent when nobody recorded them. */
  proofRequests?: readonly ProofRequest[] | undefined;
  /** The facilitator's accounts and the funding accounts (their transfers are no plausible decoys). */
  knownSenders?: readonly Address[] | undefined;
};

/** The decoy figures over every request that carries decoys. */
export type DecoyFigures = {
  /** Requests with a minted leaf, per minted leaf. */
  requests: number;
  /** Of those, the ones that carry no decoy at all. */
  withoutDecoys: number;
  /** Smallest number of decoys left after filtering in a request that carries decoys (NaN without any). */
  minLeft: number;
  /** Requests where the chain held at least 3 plausible leaves (the target applies to these). */
  withCandidates: number;
  /** Of those, the ones where fewer than 3 decoys survive the filter (target: 0). */
  belowThree: number;
  /** Requests where the chain held fewer than 3 plausible leaves, so no choice of decoys could reach 3. */
  short: number;
};

/** A scored run. */
export type RunScore = { mints: MintScore[]; figures: ObserverFigures; decoys: DecoyFigures | undefined };

/** The decoys an operator must still consider, per request: the target. */
export const MIN_DECOYS_LEFT = 3;

/** Scores the run. */
export function scoreRun(parameters: ScoreRunParameters): RunScore {
  const { observed, policy, truth } = parameters;
  const mints = scoreMints(observed.events, policy, truth);
  const figures = observerFigures(mints, policy);
  if (parameters.proofRequests === undefined) return { mints, figures, decoys: undefined };
  const burnTxs = new Set(truth.map((pair) => pair.burnTxHash.toLowerCase()));
  const mintedLeaves = new Set([...observed.leaves.values()].filter((leaf) => burnTxs.has(leaf.transactionHash.toLowerCase())).map((leaf) => leaf.index));
  const perRequest = decoysAfterFiltering({
    requests: parameters.proofRequests,
    leaves: observed.leaves,
    mintedLeaves,
    knownSenders: parameters.knownSenders ?? [],
  });
  const withDecoys = perRequest.filter((entry) => entry.decoys > 0);
  const withCandidates = perRequest.filter((entry) => entry.candidates >= MIN_DECOYS_LEFT);
  return {
    mints,
    figures,
    decoys: {
      requests: perRequest.length,
      withoutDecoys: perRequest.length - withDecoys.length,
      minLeft: withDecoys.length === 0 ? Number.NaN : Math.min(...withDecoys.map((entry) => entry.decoysLeft)),
      withCandidates: withCandidates.length,
      belowThree: withCandidates.filter((entry) => entry.decoysLeft < MIN_DECOYS_LEFT).length,
      short: perRequest.length - withCandidates.length,
    },
  };
}
