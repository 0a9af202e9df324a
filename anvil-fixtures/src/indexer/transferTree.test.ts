import { emptyTreeRoot, verifyMerklePath } from "@svc/scheme";
import { describe, expect, it } from "vitest";
import { TransferTree } from "./transferTree.js";

const treeOf = (leaves: readonly bigint[]): TransferTree => {
  const tree = new TransferTree();
  for (const leaf of leaves) tree.append(leaf);
  return tree;
};

describe("TransferTree", () => {
  const leaves = [11n, 22n, 33n, 44n, 55n];
  const tree = treeOf(leaves);

  it("answers for every prefix exactly as a tree built from that prefix alone", () => {
    for (let count = 0; count <= leaves.length; count++) {
      expect(tree.rootAt(count)).toBe(treeOf(leaves.slice(0, count)).rootAt(count));
    }
    expect(tree.rootAt(0)).toBe(emptyTreeRoot());
  });

  it("serves paths that verify against the prefix root and nothing else", () => {
    for (let count = 1; count <= leaves.length; count++) {
      for (let leafIndex = 0; leafIndex < count; leafIndex++) {
        const siblings = tree.pathAt(count, leafIndex);
        const leaf = leaves[leafIndex]!;
        expect(verifyMerklePath({ leaf, leafIndex: BigInt(leafIndex), siblings, root: tree.rootAt(count) })).toBe(true);
        if (count < leaves.length) {
          expect(verifyMerklePath({ leaf, leafIndex: BigInt(leafIndex), siblings, root: tree.rootAt(leaves.length) })).toBe(false);
        }
      }
    }
  });

  it("refuses a leaf at or beyond the tree index and a tree index beyond the synced leaves", () => {
    expect(() => tree.pathAt(3, 3)).toThrow(RangeError);
    expect(() => tree.rootAt(6)).toThrow(RangeError);
  });
});
