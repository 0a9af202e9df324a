import { describe, expect, it } from "vitest";
import { summarize } from "../harness/stats.js";
import type { SharedInstancesResult, SharedRun } from "../measurements/sharedInstances.js";
import { renderSharedInstancesSection } from "./renderSharedInstancesSection.js";

function run(instances: number, offersPerSec: number, paidPerSec: number, paidFailures: string[] = []): SharedRun {
  return {
    instances,
    offersPerSec,
    offers: { connections: 8, responses: 40, ok: 40, non2xx: 0, errors: 0, durationSec: 4, okPerSec: offersPerSec, latency: summarize([10]) },
    paidPerSec,
    paidOk: 30,
    paidFailures,
    paidMs: summarize([700, 800, 900]),
  };
}

const result: SharedInstancesResult = {
  embeddedSettleMs: summarize([80, 100, 120]),
  postgresSettleMs: summarize([110, 130, 150]),
  settleFailures: [],
  runs: [run(1, 10, 5), run(2, 15, 4, ["HTTP 402 pending_burn", "HTTP 402 pending_burn"])],
  payers: 8,
  workersPerInstance: 2,
  poolSizePerInstance: 4,
  durationSeconds: 48,
};

describe("renderSharedInstancesSection", () => {
  it("prints both rows, the two-to-one ratios as measured (below 1 too), and what the database adds to a settle", () => {
    const text = renderSharedInstancesSection(result).join("\n");
    expect(text).toContain("## 8. Several instances on one PostgreSQL");
    expect(text).toContain("| 2 vs 1 | 1.50x | 0.80x |");
    expect(text).toContain("| added by the database (median) | 30 (1.30x) |");
    expect(text).toContain("2 (2× HTTP 402 pending_burn)");
  });

  it("says n/a for a run that did not happen rather than inventing a ratio", () => {
    const text = renderSharedInstancesSection({ ...result, runs: [run(1, 10, 5)] }).join("\n");
    expect(text).toContain("| 2 | n/a | n/a | n/a | n/a |");
    expect(text).toContain("| 2 vs 1 | n/a | n/a |");
  });
});
