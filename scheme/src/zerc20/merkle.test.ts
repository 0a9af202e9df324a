import { describe, expect, it } from "vitest";
import { nextHashChain, HASH_CHAIN_MASK } from "./hashChain.js";
import { emptyTreeRoot, merkleNode, merkleRootFromPath, transferLeaf, verifyMerklePath, zeroHashes } from "./merkle.js";

describe("transfer tree", () => {
  it("empty root is the 40-fold self-hash of the zero leaf", () => {
    let node = 0n;
    for (let i = 0; i < 40; i++) node = merkleNode(node, node);
    expect(emptyTreeRoot()).toBe(node);
  });

  it("a path of zero siblings proves the first leaf of an otherwise empty tree", () => {
    const leaf = transferLeaf("0x000000000000000000000000000000000000dEaD", 5n);
    const siblings = zeroHashes().slice(0, 40);
    const root = merkleRootFromPath(leaf, 0n, siblings);
    expect(verifyMerklePath({ leaf, leafIndex: 0n, siblings, root })).toBe(true);
    expect(verifyMerklePath({ leaf, leafIndex: 1n, siblings, root })).toBe(false);
    expect(verifyMerklePath({ leaf: leaf + 1n, leafIndex: 0n, siblings, root })).toBe(false);
    expect(verifyMerklePath({ leaf, leafIndex: 0n, siblings: siblings.slice(1), root })).toBe(false);
  });

  it("hash chain stays within 248 bits and depends on every input", () => {
    const a = nextHashChain(0n, "0x000000000000000000000000000000000000dEaD", 1n);
    expect(a & ~HASH_CHAIN_MASK).toBe(0n);
    expect(nextHashChain(0n, "0x000000000000000000000000000000000000dEaD", 2n)).not.toBe(a);
    expect(nextHashChain(1n, "0x000000000000000000000000000000000000dEaD", 1n)).not.toBe(a);
  });
});
