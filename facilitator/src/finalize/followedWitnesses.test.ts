import type { IndexerProof } from "@svc/scheme";
import { describe, expect, it } from "vitest";
import type { TreeFollower, TreeFollowerProgress } from "../witnesses/createTreeFollower.js";
import { WitnessRootMismatchError, WitnessUnavailableError } from "../witnesses/errors.js";
import { followedWitnessIndexer, witnessWaiting } from "./followedWitnesses.js";

/** A follower at `leaves` that keeps the paths of `tracked` and syncs to whatever it is asked (counted). */
function fakeFollower(options: { leaves: bigint; tracked: bigint[]; syncTo?: bigint; mismatch?: boolean }) {
  let leaves = options.leaves;
  const syncs: (bigint | undefined)[] = [];
  const progress = (): TreeFollowerProgress => ({ leaves, nextBlock: 1n, provedIndex: leaves, finalBlock: 1n, lastChecked: undefined, tracked: 0 });
  const follower: Pick<TreeFollower, "sync" | "proofs" | "progress"> = {
    progress,
    sync: async (sync) => {
      syncs.push(sync?.upTo);
      if (options.mismatch) throw new WitnessRootMismatchError({ index: sync?.upTo ?? 0n, proved: 1n, computed: 2n });
      leaves = options.syncTo ?? sync?.upTo ?? leaves;
      return progress();
    },
    proofs: (targetIndex, leafIndices) => {
      if (leaves !== targetIndex) throw new WitnessUnavailableError({ targetIndex, reason: leaves < targetIndex ? "behind" : "ahead" });
      return leafIndices.map((leafIndex): IndexerProof => {
        if (!options.tracked.includes(leafIndex)) throw new WitnessUnavailableError({ targetIndex, leafIndex, reason: "untracked" });
        return { target_index: targetIndex, leaf_index: leafIndex, root: 7n, hash_chain: 0n, siblings: [] };
      });
    },
  };
  return { follower, syncs };
}

describe("followedWitnessIndexer", () => {
  it("answers our tracked leaves under the asked root and leaves the decoys out, syncing up to the root first", async () => {
    const { follower, syncs } = fakeFollower({ leaves: 5n, tracked: [2n, 6n] });
    const paths = await followedWitnessIndexer(follower).proofs(9n, [1n, 2n, 4n, 6n, 8n]);
    expect(syncs).toEqual([9n]);
    expect(paths.map((path) => path.leaf_index)).toEqual([2n, 6n]);
    expect(paths.every((path) => path.target_index === 9n && path.root === 7n)).toBe(true);
  });

  it("does not sync when the follower is at the root already", async () => {
    const { follower, syncs } = fakeFollower({ leaves: 9n, tracked: [3n] });
    expect(await followedWitnessIndexer(follower).proofs(9n, [3n])).toHaveLength(1);
    expect(syncs).toEqual([]);
  });

  it("refuses by name when it holds none of the leaves, or has not reached the root", async () => {
    const untracked = fakeFollower({ leaves: 9n, tracked: [] });
    await expect(followedWitnessIndexer(untracked.follower).proofs(9n, [3n])).rejects.toMatchObject({ name: "WitnessUnavailableError", reason: "untracked" });
    const behind = fakeFollower({ leaves: 4n, tracked: [3n], syncTo: 6n });
    await expect(followedWitnessIndexer(behind.follower).proofs(9n, [3n])).rejects.toMatchObject({ name: "WitnessUnavailableError", reason: "behind" });
  });

  it("passes a root mismatch on: no path of a wrong tree", async () => {
    const { follower } = fakeFollower({ leaves: 4n, tracked: [3n], mismatch: true });
    await expect(followedWitnessIndexer(follower).proofs(9n, [3n])).rejects.toBeInstanceOf(WitnessRootMismatchError);
  });
});

describe("witnessWaiting", () => {
  it("turns the follower's refusals into waiting codes and leaves any other error to the caller", () => {
    expect(witnessWaiting(new WitnessUnavailableError({ targetIndex: 9n, reason: "behind" }))).toMatchObject({ kind: "waiting", reason: "witness_behind" });
    expect(witnessWaiting(new WitnessRootMismatchError({ index: 9n, proved: 1n, computed: 2n }))).toMatchObject({
      kind: "waiting",
      reason: "witness_root_mismatch",
    });
    expect(witnessWaiting(new Error("rpc down"))).toBeUndefined();
  });
});
