import { describe, expect, it } from "vitest";
import { anonymitySets, type ObservedEvent } from "./anonymitySets.js";

/** Builds a sequence from a compact script: `"B5 M5"` is a burn then a mint of value 5, one per block. */
function script(text: string): ObservedEvent[] {
  return text
    .split(/\s+/)
    .filter((token) => token !== "")
    .map((token, index) => ({ kind: token.startsWith("B") ? "burn" : "mint", value: BigInt(token.slice(1)), blockNumber: BigInt(index + 1), logIndex: 0 }));
}

const figures = (events: readonly ObservedEvent[]) => anonymitySets(events).map((mint) => [mint.unmintedBurns, mint.possibleSources]);

describe("anonymitySets", () => {
  it("gives 1 to every mint that follows its own burn (today's fast default)", () => {
    expect(figures(script("B5 M5 B5 M5 B7 M7"))).toEqual([
      [1, 1],
      [1, 1],
      [1, 1],
    ]);
  });

  it("counts the waiting burns down while a batch is minted, but every mint of the batch could be any of them", () => {
    expect(figures(script("B5 B5 B5 M5 M5 M5"))).toEqual([
      [3, 3],
      [2, 3],
      [1, 3],
    ]);
  });

  it("never counts a burn of another amount", () => {
    expect(figures(script("B5 B7 B9 M5 M7 M9"))).toEqual([
      [1, 1],
      [1, 1],
      [1, 1],
    ]);
  });

  it("rules out a burn only when no consistent assignment gives it to this mint", () => {
    // m1 can only be b1; m2 and m3 share b2 and b3 (b1 is taken by m1 in every assignment).
    expect(figures(script("B5 M5 B5 B5 M5 M5"))).toEqual([
      [1, 1],
      [2, 2],
      [1, 2],
    ]);
    // Two waiting, one minted, one more arrives: every later mint could be any of the three.
    expect(figures(script("B5 B5 M5 B5 M5 M5"))).toEqual([
      [2, 2],
      [2, 3],
      [1, 3],
    ]);
  });

  it("orders by block, then log index, whatever the input order", () => {
    const events: ObservedEvent[] = [
      { kind: "mint", value: 5n, blockNumber: 12n, logIndex: 0 },
      { kind: "burn", value: 5n, blockNumber: 10n, logIndex: 4 },
      { kind: "burn", value: 5n, blockNumber: 10n, logIndex: 1 },
      { kind: "mint", value: 5n, blockNumber: 11n, logIndex: 0 },
    ];
    expect(anonymitySets(events)).toEqual([
      { value: 5n, blockNumber: 11n, logIndex: 0, unmintedBurns: 2, possibleSources: 2 },
      { value: 5n, blockNumber: 12n, logIndex: 0, unmintedBurns: 1, possibleSources: 2 },
    ]);
  });

  it("gives 0 to a mint whose burn is not in the observed range (a mint before any burn in the same block)", () => {
    const events: ObservedEvent[] = [
      { kind: "mint", value: 5n, blockNumber: 10n, logIndex: 0 },
      { kind: "burn", value: 5n, blockNumber: 10n, logIndex: 3 },
      { kind: "mint", value: 5n, blockNumber: 11n, logIndex: 0 },
    ];
    expect(figures(events)).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(figures(script("B7 M7 M5"))).toEqual([
      [1, 1],
      [0, 0],
    ]);
  });

  it("returns nothing for burns alone", () => {
    expect(anonymitySets(script("B5 B5"))).toEqual([]);
  });
});
