import { describe, expect, it } from "vitest";
import { DECOY_LEAVES, mixProofLeaves } from "./mixProofLeaves.js";

describe("mixProofLeaves", () => {
  it("keeps every own leaf and adds the decoy count of distinct other leaves, ascending", () => {
    const leaves = mixProofLeaves([40n, 7n], [1n, 2n, 3n, 5n, 8n, 13n, 21n], 100n);
    expect(leaves).toHaveLength(2 + DECOY_LEAVES);
    expect(leaves).toEqual(expect.arrayContaining([7n, 40n]));
    expect(new Set(leaves).size).toBe(leaves.length);
    expect(leaves).toEqual([...leaves].sort((a, b) => (a < b ? -1 : 1)));
    expect(leaves.filter((leaf) => leaf !== 7n && leaf !== 40n).every((leaf) => [1n, 2n, 3n, 5n, 8n, 13n, 21n].includes(leaf))).toBe(true);
  });

  it("never picks a decoy at or above the proved index, nor an own leaf twice", () => {
    const leaves = mixProofLeaves([4n], [4n, 4n, 9n, 10n, 11n], 10n, 3);
    expect(leaves).toEqual([4n, 9n]);
  });

  it("draws decoys at random: the same inputs give different mixes", () => {
    const candidates = Array.from({ length: 200 }, (_, index) => BigInt(index + 1000));
    const mixes = new Set(Array.from({ length: 10 }, () => mixProofLeaves([5n], candidates, 5000n).join(",")));
    expect(mixes.size).toBeGreaterThan(1);
  });

  it("uses the given draw, so a test can pin the picks", () => {
    expect(mixProofLeaves([50n], [10n, 20n, 30n, 40n], 100n, 2, () => 0)).toEqual([10n, 20n, 50n]);
  });
});
