import { describe, expect, it } from "vitest";
import { pairedDifferences, percentile, slope, summarize } from "./stats.js";

describe("summarize", () => {
  it("gives the median, the nearest-rank p95 and the total of any order of samples", () => {
    const samples = Array.from({ length: 20 }, (_, index) => 20 - index);
    expect(summarize(samples)).toMatchObject({ n: 20, median: 10.5, p95: 19, min: 1, max: 20, total: 210, mean: 10.5 });
    expect(summarize([3, 1, 2])).toMatchObject({ median: 2, p95: 3 });
  });

  it("answers NaN figures for no samples, which the report prints as n/a", () => {
    const empty = summarize([]);
    expect(empty.n).toBe(0);
    expect(empty.median).toBeNaN();
    expect(empty.p95).toBeNaN();
  });
});

describe("percentile", () => {
  it("takes the nearest rank", () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4], 0.95)).toBe(4);
  });
});

describe("pairedDifferences", () => {
  it("subtracts round by round and skips a round either side lacks", () => {
    expect(pairedDifferences([5, undefined, 9, 4], [1, 2, 3])).toEqual([4, 6]);
    expect(pairedDifferences([], [1])).toEqual([]);
  });
});

describe("slope", () => {
  it("fits a least-squares line and refuses a single x", () => {
    expect(
      slope([
        { x: 0, y: 1 },
        { x: 1, y: 3 },
        { x: 2, y: 5 },
      ]),
    ).toBeCloseTo(2);
    expect(
      slope([
        { x: 1, y: 1 },
        { x: 1, y: 2 },
      ]),
    ).toBeNaN();
  });
});
