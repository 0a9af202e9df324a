import { describe, expect, it } from "vitest";
import { arrivalSchedule } from "./arrivalSchedule.js";

describe("arrivalSchedule", () => {
  const parameters = { count: 300, meanGapMs: 500, prices: 3, seed: 19 };

  it("deals the prices in equal shares and starts at 0, in non-decreasing time", () => {
    const schedule = arrivalSchedule(parameters);
    expect(schedule).toHaveLength(300);
    expect(schedule[0]?.atMs).toBe(0);
    expect([0, 1, 2].map((price) => schedule.filter((arrival) => arrival.priceIndex === price).length)).toEqual([100, 100, 100]);
    expect(schedule.every((arrival, index) => index === 0 || arrival.atMs >= (schedule[index - 1]?.atMs ?? 0))).toBe(true);
  });

  it("spreads arrivals with the asked mean gap, not evenly and not in price order", () => {
    const schedule = arrivalSchedule(parameters);
    const gaps = schedule.slice(1).map((arrival, index) => arrival.atMs - (schedule[index]?.atMs ?? 0));
    const mean = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
    expect(mean).toBeGreaterThan(400);
    expect(mean).toBeLessThan(600);
    expect(new Set(gaps).size).toBeGreaterThan(100);
    expect(schedule.slice(0, 30).map((arrival) => arrival.priceIndex)).not.toEqual(Array.from({ length: 30 }, (_, index) => index % 3));
  });

  it("is the same for the same seed and differs for another", () => {
    expect(arrivalSchedule(parameters)).toEqual(arrivalSchedule(parameters));
    expect(arrivalSchedule({ ...parameters, seed: 20 })).not.toEqual(arrivalSchedule(parameters));
  });
});
