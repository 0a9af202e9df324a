import { describe, expect, it } from "vitest";
import { createIncrementalTree } from "./incrementalTree.js";
import { merkleNode, merkleRootFromPath, verifyMerklePath, zeroHashes } from "./merkle.js";
import { zerc20Protocol } from "./protocol/zerc20Protocol.js";

const EMPTY_ROOT = 8687547638004116013653730449839507042090717944911454416140763808366589487233n;

/** The reference: every level of the tree recomputed from all leaves with merkle.ts, empty positions from zeroHashes. */
function fullTree(leaves: readonly bigint[]): { root: bigint; path: (leafIndex: number) => bigint[] } {
  const zeros = zeroHashes();
  const levels: bigint[][] = [[...leaves]];
  for (let level = 0; level < 40; level++) {
    const below = levels[level] ?? [];
    const above: bigint[] = [];
    for (let index = 0; index < below.length; index += 2) above.push(merkleNode(below[index] ?? 0n, below[index + 1] ?? zeros[level] ?? 0n));
    levels.push(above);
  }
  return {
    root: levels[40]?.[0] ?? zeros[40] ?? 0n,
    path: (leafIndex) => levels.slice(0, 40).map((nodes, level) => nodes[Number((BigInt(leafIndex) >> BigInt(level)) ^ 1n)] ?? zeros[level] ?? 0n),
  };
}

describe("incremental transfer tree", () => {
  it("the empty tree has the published empty root, and a first leaf hashed with the v1 vector is proved under the root (zerc20-real.md §2)", () => {
    const tree = createIncrementalTree();
    expect(tree.size()).toBe(0n);
    expect(tree.root()).toBe(EMPTY_ROOT);
    // §2 vector: v1 leaf P2(to = 1, value = 2).
    const leaf = zerc20Protocol("zerc20-v1").transferLeaf({ from: `0x${"09".padStart(40, "0")}`, to: `0x${"01".padStart(40, "0")}`, value: 2n });
    expect(leaf).toBe(0x115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189an);
    tree.append(leaf, { track: true });
    const path = tree.path(0n);
    expect(path?.siblings).toEqual(zeroHashes().slice(0, 40));
    expect(tree.root()).toBe(merkleRootFromPath(leaf, 0n, zeroHashes().slice(0, 40)));
    expect(tree.root()).not.toBe(EMPTY_ROOT);
  });

  it("a v2 leaf (§2 vector P3(1, 2, 3)) appends like any other", () => {
    const leaf = zerc20Protocol("zerc20-v2").transferLeaf({ from: `0x${"01".padStart(40, "0")}`, to: `0x${"02".padStart(40, "0")}`, value: 3n });
    expect(leaf).toBe(0x0e7732d89e6939c0ff03d5e58dab6302f3230e269dc5b968f725df34ab36d732n);
    const tree = createIncrementalTree();
    tree.append(leaf);
    expect(tree.root()).toBe(fullTree([leaf]).root);
  });

  it("at sizes across subtree boundaries the root and every tracked path equal a full recomputation", () => {
    const tree = createIncrementalTree();
    const leaves: bigint[] = [];
    const trackedAt = new Set([0, 1, 5, 8, 13, 31, 32, 40]);
    const checkedSizes = new Set([1, 2, 3, 6, 8, 9, 14, 16, 17, 31, 32, 33, 34, 41, 47]);
    for (let index = 0; index < 47; index++) {
      const leaf = BigInt(index) * 7919n + 11n;
      leaves.push(leaf);
      tree.append(leaf, { track: trackedAt.has(index) });
      if (!checkedSizes.has(leaves.length)) continue;
      const reference = fullTree(leaves);
      expect(tree.root()).toBe(reference.root);
      for (const tracked of trackedAt) {
        if (tracked > index) continue;
        const path = tree.path(BigInt(tracked));
        expect(path?.leaf).toBe(leaves[tracked]);
        expect(path?.siblings).toEqual(reference.path(tracked));
        expect(verifyMerklePath({ leaf: leaves[tracked] ?? 0n, leafIndex: BigInt(tracked), siblings: path?.siblings ?? [], root: reference.root })).toBe(true);
      }
    }
    expect(tree.path(2n)).toBeUndefined();
  });

  it("continues from a saved state exactly as if it had never stopped, and forgets an untracked path", () => {
    const leaves = Array.from({ length: 37 }, (_, index) => BigInt(index) + 100n);
    const whole = createIncrementalTree();
    const first = createIncrementalTree();
    leaves.forEach((leaf, index) => {
      whole.append(leaf, { track: index === 3 || index === 20 });
      if (index < 21) first.append(leaf, { track: index === 3 || index === 20 });
    });
    const saved = first.state();
    const resumed = createIncrementalTree(
      JSON.parse(
        JSON.stringify(saved, (_, value) => (typeof value === "bigint" ? `${value}` : value)),
        (_key, value) => (typeof value === "string" ? BigInt(value) : value),
      ),
    );
    for (const leaf of leaves.slice(21)) resumed.append(leaf);
    expect(resumed.root()).toBe(whole.root());
    expect(resumed.path(20n)).toEqual(whole.path(20n));
    // The saved state is a copy: appending to the resumed tree did not change it.
    expect(saved.size).toBe(21n);
    resumed.untrack(3n);
    expect(resumed.path(3n)).toBeUndefined();
    expect(resumed.state().tracked.map((path) => path.leafIndex)).toEqual([20n]);
  });
});
