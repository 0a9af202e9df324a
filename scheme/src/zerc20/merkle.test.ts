import { describe, expect, it } from "vitest";
import { emptyTreeRoot, merkleNode, merkleRootFromPath, verifyMerklePath, zeroHashes } from "./merkle.js";
import { HASH_CHAIN_MASK } from "./protocol/hashChainMask.js";
import { zerc20Protocol } from "./protocol/zerc20Protocol.js";

const dead = "0x000000000000000000000000000000000000dEaD";
const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("transfer tree", () => {
  it("nodes are P2(left, right) and the empty height-40 tree has the published root (zerc20-real.md §2)", () => {
    // §2: "node = P2(left, right)"; v1's leaf vector is the same P2: P2(1, 2).
    expect(merkleNode(1n, 2n)).toBe(0x115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189an);
    // §2: "empty leaf 0, empty root 8687…233 (= provedTransferRoots[0], both versions)".
    expect(zeroHashes()[0]).toBe(0n);
    expect(zeroHashes()).toHaveLength(41);
    expect(zeroHashes()[40]).toBe(8687547638004116013653730449839507042090717944911454416140763808366589487233n);
    expect(emptyTreeRoot()).toBe(8687547638004116013653730449839507042090717944911454416140763808366589487233n);
  });

  it.each(["zerc20-v1", "zerc20-v2"] as const)("a path of zero siblings proves the first %s leaf of an otherwise empty tree", (version) => {
    const leaf = zerc20Protocol(version).transferLeaf({ from: payer, to: dead, value: 5n });
    const siblings = zeroHashes().slice(0, 40);
    const root = merkleRootFromPath(leaf, 0n, siblings);
    expect(verifyMerklePath({ leaf, leafIndex: 0n, siblings, root })).toBe(true);
    expect(verifyMerklePath({ leaf, leafIndex: 1n, siblings, root })).toBe(false);
    expect(verifyMerklePath({ leaf: leaf + 1n, leafIndex: 0n, siblings, root })).toBe(false);
    expect(verifyMerklePath({ leaf, leafIndex: 0n, siblings: siblings.slice(1), root })).toBe(false);
  });
});

describe.each(["zerc20-v1", "zerc20-v2"] as const)("hash chain under %s", (version) => {
  const { nextHashChain } = zerc20Protocol(version);

  it("stays within 248 bits and depends on the recipient, the value and the previous link", () => {
    const a = nextHashChain(0n, { from: payer, to: dead, value: 1n });
    expect(a & ~HASH_CHAIN_MASK).toBe(0n);
    expect(nextHashChain(0n, { from: payer, to: dead, value: 2n })).not.toBe(a);
    expect(nextHashChain(1n, { from: payer, to: dead, value: 1n })).not.toBe(a);
    expect(nextHashChain(0n, { from: payer, to: payer, value: 1n })).not.toBe(a);
  });

  it(version === "zerc20-v2" ? "depends on the sender" : "ignores the sender", () => {
    const a = nextHashChain(0n, { from: payer, to: dead, value: 1n });
    const b = nextHashChain(0n, { from: dead, to: dead, value: 1n });
    expect(a !== b).toBe(version === "zerc20-v2");
  });
});
