/**
 * `[finalize] witnesses = "self"`: the finalize step's {@link IndexerClient} served by the transfer-tree
 * follower (witnesses/createTreeFollower.ts) instead of the indexer's `/proofs`, so no request names a leaf of
 * ours. The prefetch still mixes decoy leaves into what it asks for; the follower tracks only our leaves, so
 * it answers the tracked ones and leaves the decoys out. When the follower has not reached the root a mint
 * needs, or stopped on a wrong root, the payment waits with its own code (never the indexer in its place).
 */
import { WitnessRootMismatchError, WitnessUnavailableError } from "../witnesses/errors.js";
import type { TreeFollower } from "../witnesses/createTreeFollower.js";
import type { FinalizeOutcome } from "./finalizeEntry.js";
import { FINALIZE_WAITING_REASON } from "./finalizeReasons.js";
import type { IndexerClient, TransferProof } from "./indexerClient.js";

/** The follower in the indexer's shape: it syncs up to `targetIndex` first when it has not reached it. */
export function followedWitnessIndexer(follower: Pick<TreeFollower, "sync" | "proofs" | "progress">): IndexerClient {
  return {
    proofs: async (targetIndex, leafIndices) => {
      if (follower.progress().leaves < targetIndex) await follower.sync({ upTo: targetIndex });
      const paths: TransferProof[] = [];
      for (const leafIndex of leafIndices) {
        try {
          paths.push(...follower.proofs(targetIndex, [leafIndex]));
        } catch (error) {
          // A decoy is never tracked; one of our leaves left out shows as a missing path in the finalize step.
          if (!(error instanceof WitnessUnavailableError && error.reason === "untracked")) throw error;
        }
      }
      if (paths.length === 0 && leafIndices.length > 0) throw new WitnessUnavailableError({ targetIndex, reason: "untracked" });
      return paths;
    },
  };
}

/** The waiting outcome a follower's refusal becomes; `undefined` for any other error (rethrown by the caller). */
export function witnessWaiting(error: unknown): FinalizeOutcome | undefined {
  if (error instanceof WitnessUnavailableError) return { kind: "waiting", reason: FINALIZE_WAITING_REASON.witnessBehind, detail: error.shortMessage };
  if (error instanceof WitnessRootMismatchError) {
    return { kind: "waiting", reason: FINALIZE_WAITING_REASON.witnessRootMismatch, detail: error.shortMessage };
  }
  return undefined;
}
