import { describe, expect, it } from "vitest";

import { DecayingRate } from "./decayingRate.js";

const MINUTE = 60_000;

describe("DecayingRate", () => {
  it("reads 0 before the first event, and 1/τ right after it", () => {
    const rate = new DecayingRate(MINUTE);
    expect(rate.perSecond(5_000)).toBe(0);
    rate.record(5_000);
    expect(rate.perSecond(5_000)).toBeCloseTo(1 / 60, 12);
  });

  it("settles at a steady rate: ten events a second for ten minutes read as ten a second", () => {
    const rate = new DecayingRate(MINUTE);
    for (let at = 0; at < 10 * MINUTE; at += 100) rate.record(at);
    // The weighted sum of a steady stream is 1 / (τ (1 - e^(-Δ/τ))) = 10.008 per second here.
    expect(rate.perSecond(10 * MINUTE - 100)).toBeCloseTo(10, 1);
  });

  it("falls by e once a time constant passes without events, and towards 0 after many", () => {
    const rate = new DecayingRate(MINUTE);
    for (let at = 0; at < 5 * MINUTE; at += 250) rate.record(at);
    const last = 5 * MINUTE - 250;
    const before = rate.perSecond(last);
    expect(before).toBeGreaterThan(3.9);
    expect(rate.perSecond(last + MINUTE)).toBeCloseTo(before / Math.E, 9);
    expect(rate.perSecond(last + 20 * MINUTE)).toBeLessThan(1e-8);
  });

  it("counts a burst by its share of the time constant: sixty events at once read as one a second", () => {
    const rate = new DecayingRate(MINUTE);
    for (let i = 0; i < 60; i++) rate.record(1_000);
    expect(rate.perSecond(1_000)).toBeCloseTo(1, 12);
  });

  it("never grows when read or fed with a time earlier than the last event", () => {
    const rate = new DecayingRate(MINUTE);
    rate.record(10_000);
    expect(rate.perSecond(9_000)).toBeCloseTo(1 / 60, 12);
    rate.record(9_000);
    expect(rate.perSecond(10_000)).toBeCloseTo(2 / 60, 12);
  });
});
