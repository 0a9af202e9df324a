import { describe, expect, it } from "vitest";
import type { PrivacyPhaseResult, PrivacyResult } from "../measurements/privacyAnonymity.js";
import { summarize } from "../harness/stats.js";
import { observerVerdicts, privacyVerdict, renderPrivacySection } from "./renderPrivacySection.js";

const OBSERVER = {
  mints: 51,
  scored: 51,
  earlyMints: 40,
  earlyBelowK: 0,
  minEarlySet: 3,
  medianSet: 6,
  medianSetInHindsight: 5,
  outsideWindow: 0,
  fifoRate: 0.1,
  nearestRate: 0.05,
  chance: 0.2,
};
const DECOYS = { requests: 60, withoutDecoys: 0, minLeft: 3, withCandidates: 58, belowThree: 0, short: 2 };

function phase(overrides: Partial<PrivacyPhaseResult> = {}): PrivacyPhaseResult {
  return {
    policy: undefined,
    finalizeIntervalMs: 1000,
    payments: 51,
    accepted: 51,
    mints: 51,
    unmintedBurns: summarize([1, 1, 1, 2]),
    possibleSources: summarize([1, 1, 2, 2]),
    unmintedMedianByPrice: { "2000000000000000": 1 },
    acceptedToFinalizedMs: summarize([1500, 2500]),
    mintsBySameSender: 51,
    observer: {
      ...OBSERVER,
      earlyMints: 0,
      earlyBelowK: 0,
      minEarlySet: Number.NaN,
      medianSet: 0,
      medianSetInHindsight: 0,
      fifoRate: 1,
      nearestRate: 1,
      chance: 1,
    },
    decoys: { ...DECOYS, minLeft: 1, belowThree: 20 },
    observerSlackSeconds: 17,
    wallSeconds: 25,
    failures: [],
    ...overrides,
  };
}

function result(policy: Partial<PrivacyPhaseResult>): PrivacyResult {
  return {
    compression: 60,
    meanGapMs: 400,
    prices: ["2000000000000000"],
    recommended: { minDelaySeconds: 60, maxDelaySeconds: 1800, minAnonymitySet: 3 },
    slackSeconds: 4,
    local: phase(),
    policy: phase({
      policy: { minDelaySeconds: 1, maxDelaySeconds: 30, minAnonymitySet: 3 },
      mintsBySameSender: 0,
      observer: OBSERVER,
      decoys: DECOYS,
      observerSlackSeconds: 4,
      ...policy,
    }),
    durationSeconds: 80,
  };
}

describe("privacyVerdict", () => {
  it("is met only when the recommended policy's median anonymity set is above 1", () => {
    expect(privacyVerdict(result({ unmintedBurns: summarize([1, 3, 4]) })).met).toBe(true);
    expect(privacyVerdict(result({ unmintedBurns: summarize([1, 1, 4]) })).met).toBe(false);
  });

  it("is not measured when the policy run minted nothing or failed", () => {
    expect(privacyVerdict(result({ mints: 0, unmintedBurns: summarize([]) })).met).toBeUndefined();
    expect(privacyVerdict(result({ failures: ["the facilitator did not start with this policy"] })).met).toBeUndefined();
  });
});

describe("observerVerdicts", () => {
  it("checks the three targets under the recommended policy, reporting the local default beside it", () => {
    expect(observerVerdicts(result({})).map((verdict) => verdict.met)).toEqual([true, true, true]);
    expect(observerVerdicts(result({ observer: { ...OBSERVER, earlyBelowK: 1, fifoRate: 0.31 } })).map((verdict) => verdict.met)).toEqual([false, false, true]);
    expect(observerVerdicts(result({ decoys: { ...DECOYS, belowThree: 1 } })).map((verdict) => verdict.met)).toEqual([true, true, false]);
    expect(observerVerdicts(result({})).map((verdict) => verdict.measured)).toEqual([
      "0 of 40 early mints below k (smallest set 3)",
      "0.1 vs chance 0.2; local default: 1 vs chance 1",
      "recommended: 0 of 58 requests with candidates below 3 (fewest left 3; 2 short of candidates); local default: 20 of 58 requests with candidates below 3 (fewest left 1; 2 short of candidates)",
    ]);
  });

  it("is not measured when the run scored no mint", () => {
    expect(observerVerdicts(result({ observer: undefined, decoys: undefined })).map((verdict) => verdict.met)).toEqual([undefined, undefined, undefined]);
  });
});

describe("renderPrivacySection", () => {
  it("shows the observer who knows the policy per policy, with the targets' figures", () => {
    const text = renderPrivacySection(result({})).join("\n");
    expect(text).toContain(
      "| recommended, 60x compressed | 4 s | 40 of 51: 0 below k = 3 (smallest 3) | 6 / 5 | 0.1 (0.5x) | 0.05 (0.3x) | 0.2 | 3; 0 of 58 with candidates below 3; 2 short of candidates; 0 without decoys | 0 |",
    );
    expect(text).toContain(
      "| local default (0 / 0 s, k = 1) | 17 s | 0 of 51: 0 below k = 1 (smallest n/a) | 0 / 0 | 1 (1x) | 1 (1x) | 1 | 1; 20 of 58 with candidates below 3; 2 short of candidates; 0 without decoys | 0 |",
    );
  });

  it("shows both policies with the compression, the sets, production-scaled times and the sender link", () => {
    const text = renderPrivacySection(result({ unmintedBurns: summarize([2, 5, 7]), acceptedToFinalizedMs: summarize([10_000, 20_000, 30_000]) })).join("\n");
    expect(text).toContain("**60x compressed**");
    expect(text).toContain(
      "| local default (the stack's configuration: no delay, k = 1), loop every 1000 ms | 51 / 51 | 1 / 1 | 1 / 1.5 | 0.002: 1 | 2.00 s / 2.50 s | 51 of 51 |",
    );
    expect(text).toContain("| 51 / 51 | 2 / 5 |");
    expect(text).toContain("20.0 s / 30.0 s (production: 20.0 min / 30.0 min) | 0 of 51 |");
  });

  it("lists a phase's failures", () => {
    expect(renderPrivacySection(result({ failures: ["3 accepted payments not finalized in time"] })).join("\n")).toContain(
      "Failures (recommended): 3 accepted payments not finalized in time",
    );
  });
});
