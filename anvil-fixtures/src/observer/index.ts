/**
 * `@svc/anvil-fixtures/observer`: the chain observer who knows the finalize policy, for the suite, the bench
 * and the demo. Reads a run from chain logs only, scores it against the facilitator's ground truth, and
 * counts the decoys an indexer operator cannot rule out.
 */
export { anonymitySets, type MintAnonymity, type ObservedEvent } from "./anonymitySets.js";
export { decoysAfterFiltering, type DecoysAfterFilteringParameters, type ProofRequest, type RequestDecoys } from "./decoysAfterFiltering.js";
export { readGroundTruth } from "./readGroundTruth.js";
export { readObservedChain, type ObservedChain, type ObservedLeaf, type ReadObservedChainParameters, type TimedEvent } from "./readObservedChain.js";
export { recordProofRequests, type ProofRequestRecorder } from "./recordProofRequests.js";
export { MIN_DECOYS_LEFT, scoreRun, type DecoyFigures, type RunScore, type ScoreRunParameters } from "./scoreRun.js";
export { consistentSlack, observerFigures, scoreMints, type GroundTruthPair, type MintScore, type ObserverFigures, type ObserverPolicy } from "./scoreMints.js";
