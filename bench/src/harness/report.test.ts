import { describe, expect, it } from "vitest";
import type { FinalizeTimingResult } from "../measurements/finalizeTiming.js";
import { renderFinalizeSection } from "./report.js";
import { summarize } from "./stats.js";

function finalizeResult(overrides: Partial<FinalizeTimingResult> = {}): FinalizeTimingResult {
  return {
    acceptedToFinalizedMs: summarize([1200, 1500, 1800]),
    indexerWitnessesAcceptedToFinalizedMs: summarize([2000, 2500, 3000]),
    passFailuresAfterResume: 0,
    pending: 100,
    finalized: 100,
    mintsPerMinute: 300,
    steadyMintsPerMinute: 420,
    drainSeconds: 20,
    feeSweepSeconds: 1.5,
    firstMintAfterSeconds: 5,
    facilitatorCpuPerMintMs: 45,
    anvilCpuPerMintMs: 12,
    rpcPerMint: { roundTrips: 4, calls: 5, byMethod: { eth_sendRawTransaction: 2 } },
    createSeconds: 0,
    failures: [],
    ...overrides,
  };
}

/** The value cell of the section's table row whose label starts with `label`. */
function row(lines: readonly string[], label: string): string | undefined {
  const line = lines
    .join("\n")
    .split("\n")
    .find((entry) => entry.startsWith(`| ${label}`));
  return line?.split(" | ")[1]?.replace(/ \|$/, "");
}

describe("renderFinalizeSection", () => {
  it("gives both witness sources' accepted → finalized medians and their self / indexer ratio", () => {
    const lines = renderFinalizeSection(finalizeResult());
    expect(row(lines, "accepted → finalized, ms")).toBe("1500 / 1800 (n=3)");
    expect(row(lines, "accepted → finalized on a second facilitator")).toBe("2500 / 3000 (n=3); self / indexer (medians): **0.60x**");
  });

  it("keeps the drain figures and says n/a for a ratio without indexer samples", () => {
    const lines = renderFinalizeSection(finalizeResult({ indexerWitnessesAcceptedToFinalizedMs: summarize([]), failures: ["boom"] }));
    expect(row(lines, "accepted → finalized on a second facilitator")).toBe("n/a (n=0); self / indexer (medians): **n/a**");
    expect(row(lines, "mints per minute, first to last mint")).toBe("**420**");
    expect(row(lines, "pending when the indexer came back")).toBe("100");
    expect(lines).toContain("Failures: boom");
  });
});
