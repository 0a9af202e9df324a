import { describe, expect, it } from "vitest";
import type { PrivacyPhaseResult, PrivacyResult } from "../measurements/privacyAnonymity.js";
import { summarize } from "../harness/stats.js";
import { privacyVerdict, renderPrivacySection } from "./renderPrivacySection.js";

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
    local: phase(),
    policy: phase({ policy: { minDelaySeconds: 1, maxDelaySeconds: 30, minAnonymitySet: 3 }, mintsBySameSender: 0, ...policy }),
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

describe("renderPrivacySection", () => {
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
