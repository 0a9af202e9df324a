import { describe, expect, it } from "vitest";
import { nextPhaseStart, roundPhase } from "./blockClock.js";

describe("nextPhaseStart", () => {
  it("starts in the current interval when the phase is still ahead", () => {
    expect(nextPhaseStart({ lastBlockAtMs: 1000, blockTimeMs: 1000, phase: 0.75, nowMs: 1500 })).toBe(1750);
  });

  it("moves to the next interval, or a later one, when the phase has passed", () => {
    expect(nextPhaseStart({ lastBlockAtMs: 1000, blockTimeMs: 1000, phase: 0.25, nowMs: 1500 })).toBe(2250);
    expect(nextPhaseStart({ lastBlockAtMs: 1000, blockTimeMs: 1000, phase: 0.25, nowMs: 3600 })).toBe(4250);
  });

  it("starts at once when now is exactly the phase", () => {
    expect(nextPhaseStart({ lastBlockAtMs: 1000, blockTimeMs: 1000, phase: 0.5, nowMs: 1500 })).toBe(1500);
  });
});

describe("roundPhase", () => {
  it("stays in [0, 1) and spreads a few rounds over the whole interval", () => {
    const phases = Array.from({ length: 8 }, (_, round) => roundPhase(round));
    for (const phase of phases) expect(phase >= 0 && phase < 1).toBe(true);
    const quarters = new Set(phases.map((phase) => Math.floor(phase * 4)));
    expect(quarters.size).toBe(4);
    expect(roundPhase(0)).toBe(0.5);
  });
});
