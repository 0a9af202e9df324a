import { describe, expect, it } from "vitest";

import { derivationsPerSecond, stockLastsSeconds, stockTarget } from "./stockSizing.js";

describe("stockTarget", () => {
  const sized = (offersPerSecond: number, derivationsPerSecond: number | null) =>
    stockTarget({ floor: 16, ceiling: 64, offersPerSecond, derivationsPerSecond });

  it("is the floor without demand, and before any derivation was timed", () => {
    expect(sized(0, 2)).toBe(16);
    expect(sized(5, null)).toBe(16);
    expect(sized(5, 0)).toBe(16);
  });

  it("adds the offers expected while the workers re-derive the floor", () => {
    // 16 addresses at 2 a second take 8 s; at 1 offer a second, 8 more are wanted meanwhile.
    expect(sized(1, 2)).toBe(24);
    // v2 on a fast path: 16 at 12 a second take 1.33 s; at 3 offers a second that is 4 more.
    expect(sized(3, 12)).toBe(20);
    // Cheap derivation stays at the floor: 0.4 of an offer rounds away.
    expect(sized(5, 200)).toBe(16);
  });

  it("never exceeds the ceiling, however far demand outruns derivation", () => {
    expect(sized(10, 2)).toBe(64);
    expect(sized(1e9, 1e-9)).toBe(64);
  });

  it("never aims below the floor, even with a ceiling set below it", () => {
    expect(stockTarget({ floor: 8, ceiling: 4, offersPerSecond: 100, derivationsPerSecond: 1 })).toBe(8);
    expect(stockTarget({ floor: 0, ceiling: 0, offersPerSecond: 100, derivationsPerSecond: 1 })).toBe(0);
  });
});

describe("stockLastsSeconds", () => {
  it("is the stock over the net drain when offers outrun derivation", () => {
    expect(stockLastsSeconds({ stocked: 30, offersPerSecond: 5, derivationsPerSecond: 2 })).toBe(10);
    expect(stockLastsSeconds({ stocked: 0, offersPerSecond: 5, derivationsPerSecond: 2 })).toBe(0);
  });

  it("counts an untimed derivation rate as none", () => {
    expect(stockLastsSeconds({ stocked: 12, offersPerSecond: 4, derivationsPerSecond: null })).toBe(3);
  });

  it("is null (indefinitely) when derivation keeps up or there is no demand", () => {
    expect(stockLastsSeconds({ stocked: 16, offersPerSecond: 2, derivationsPerSecond: 2 })).toBeNull();
    expect(stockLastsSeconds({ stocked: 16, offersPerSecond: 1, derivationsPerSecond: 12 })).toBeNull();
    expect(stockLastsSeconds({ stocked: 16, offersPerSecond: 0, derivationsPerSecond: null })).toBeNull();
  });
});

describe("derivationsPerSecond", () => {
  it("is the workers over the recent time of one derivation", () => {
    expect(derivationsPerSecond(2, 1_000)).toBe(2);
    expect(derivationsPerSecond(4, 170)).toBeCloseTo(23.53, 2);
  });

  it("is null before the first derivation, and reads a sub-millisecond time as one millisecond", () => {
    expect(derivationsPerSecond(4, undefined)).toBeNull();
    expect(derivationsPerSecond(2, 0)).toBe(2_000);
  });
});
