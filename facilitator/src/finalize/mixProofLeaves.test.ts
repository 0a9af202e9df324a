import { describe, expect, it } from "vitest";
import { DECOY_LEAVES, mixProofLeaves, splitProofRequests, type ValuedLeaf } from "./mixProofLeaves.js";

const valued = (value: bigint, ...leaves: bigint[]): ValuedLeaf[] => leaves.map((leaf) => ({ leaf, value }));

describe("mixProofLeaves", () => {
  it("gives each own leaf the decoy count of distinct decoys of its own value, ascending", () => {
    const candidates = [...valued(5n, 1n, 2n, 3n, 4n, 8n, 9n, 10n), ...valued(7n, 11n, 12n, 13n, 14n, 15n, 16n, 17n)];
    const { leaves, shortfalls } = mixProofLeaves([...valued(5n, 40n), ...valued(7n, 41n)], candidates, 100n);
    expect(leaves).toHaveLength(2 + 2 * DECOY_LEAVES);
    expect(leaves).toEqual(expect.arrayContaining([40n, 41n]));
    expect(new Set(leaves).size).toBe(leaves.length);
    expect(leaves).toEqual([...leaves].sort((a, b) => (a < b ? -1 : 1)));
    const decoys = leaves.filter((leaf) => leaf !== 40n && leaf !== 41n);
    expect(decoys.filter((leaf) => leaf <= 10n)).toHaveLength(DECOY_LEAVES);
    expect(decoys.filter((leaf) => leaf >= 11n)).toHaveLength(DECOY_LEAVES);
    expect(shortfalls).toEqual([]);
  });

  it("never picks a decoy of another value, at or above the proved index, or an own leaf; reports the shortfall", () => {
    const candidates = [...valued(5n, 4n, 9n, 10n, 11n), ...valued(6n, 1n, 2n, 3n)];
    const { leaves, shortfalls } = mixProofLeaves(valued(5n, 4n), candidates, 10n);
    expect(leaves).toEqual([4n, 9n]);
    expect(shortfalls).toEqual([{ wanted: DECOY_LEAVES, found: 1 }]);
    expect(mixProofLeaves(valued(8n, 4n), candidates, 10n).shortfalls).toEqual([{ wanted: DECOY_LEAVES, found: 0 }]);
  });

  it("draws decoys at random: the same inputs give different mixes", () => {
    const candidates = valued(5n, ...Array.from({ length: 200 }, (_, index) => BigInt(index + 1000)));
    const mixes = new Set(Array.from({ length: 10 }, () => mixProofLeaves(valued(5n, 5n), candidates, 5000n).leaves.join(",")));
    expect(mixes.size).toBeGreaterThan(1);
  });

  it("offers a waiting leaf the decoys it was given before, so repeated requests share more than the real leaf", () => {
    const candidates = valued(5n, ...Array.from({ length: 200 }, (_, index) => BigInt(index + 1000)));
    const chosen = new Map<bigint, bigint[]>();
    const first = mixProofLeaves(valued(5n, 5n), candidates, 5000n, { chosen }).leaves;
    expect(chosen.get(5n)).toHaveLength(DECOY_LEAVES);
    for (let again = 0; again < 5; again++) expect(mixProofLeaves(valued(5n, 5n), candidates, 5000n, { chosen }).leaves).toEqual(first);
  });

  it("uses the given draw, so a test can pin the picks", () => {
    expect(mixProofLeaves(valued(1n, 50n), valued(1n, 10n, 20n, 30n, 40n), 100n, { count: 2, draw: () => 0 }).leaves).toEqual([10n, 20n, 50n]);
  });
});

describe("splitProofRequests", () => {
  it("keeps every own leaf with its decoys in one request under the cap, and never repeats a leaf across requests", () => {
    const own = valued(3n, ...Array.from({ length: 30 }, (_, index) => BigInt(10_000 + index)));
    const candidates = valued(3n, ...Array.from({ length: 200 }, (_, index) => BigInt(index)));
    const requests = splitProofRequests(own, candidates, 20_000n);
    expect(requests).toHaveLength(2);
    const all = requests.flatMap((request) => request.leaves);
    expect(all).toHaveLength(30 * (1 + DECOY_LEAVES));
    expect(new Set(all).size).toBe(all.length);
    for (const request of requests) {
      expect(request.leaves.length).toBeLessThanOrEqual(100);
      const ownHere = request.leaves.filter((leaf) => leaf >= 10_000n).length;
      expect(request.leaves.length - ownHere).toBe(ownHere * DECOY_LEAVES);
    }
  });
});
