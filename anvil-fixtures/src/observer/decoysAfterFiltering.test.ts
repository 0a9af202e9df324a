import { describe, expect, it } from "vitest";
import { zeroAddress, type Address, type Hash } from "viem";
import { decoysAfterFiltering } from "./decoysAfterFiltering.js";
import type { ObservedLeaf } from "./readObservedChain.js";

const PAYER = "0x00000000000000000000000000000000000000a1" as Address;
const OTHER_PAYER = "0x00000000000000000000000000000000000000a2" as Address;
const TREASURY = "0x00000000000000000000000000000000000000b1" as Address;
const FUNDER = "0x00000000000000000000000000000000000000c1" as Address;

function leaf(index: number, from: Address, value: bigint): [bigint, ObservedLeaf] {
  return [BigInt(index), { index: BigInt(index), from, to: PAYER, value, transactionHash: `0x${"0".repeat(63)}${index % 10}` as Hash }];
}

const leaves = new Map([
  leaf(0, FUNDER, 5n),
  leaf(1, zeroAddress, 5n),
  leaf(2, TREASURY, 5n),
  leaf(3, OTHER_PAYER, 7n),
  leaf(4, OTHER_PAYER, 5n),
  leaf(5, PAYER, 5n),
  leaf(6, PAYER, 5n),
]);

describe("decoysAfterFiltering", () => {
  it("drops other values, token mints, the facilitator's and the funding accounts' transfers", () => {
    const [entry] = decoysAfterFiltering({
      requests: [{ targetIndex: 7n, leafIndices: [0n, 1n, 2n, 3n, 4n, 5n] }],
      leaves,
      mintedLeaves: new Set([5n]),
      knownSenders: [TREASURY, FUNDER],
    });
    expect(entry).toMatchObject({ mintedLeaf: 5n, decoys: 5, decoysLeft: 1 });
    // Leaves 4 and 6 below the root pass the same filter: the chain held 2 candidates, so 3 was out of reach.
    expect(entry?.candidates).toBe(2);
  });

  it("counts the other minted leaves of a batch as plausible, once per minted leaf, and skips requests without one", () => {
    const result = decoysAfterFiltering({
      requests: [
        { targetIndex: 7n, leafIndices: [4n, 5n, 6n] },
        { targetIndex: 7n, leafIndices: [0n, 4n] },
      ],
      leaves,
      mintedLeaves: new Set([5n, 6n]),
      knownSenders: [],
    });
    expect(result.map((entry) => [entry.mintedLeaf, entry.decoys, entry.decoysLeft, entry.candidates])).toEqual([
      [5n, 2, 2, 4],
      [6n, 2, 2, 4],
    ]);
  });
});
