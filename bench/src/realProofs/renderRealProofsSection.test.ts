import { describe, expect, it } from "vitest";
import { summarize } from "../harness/stats.js";
import type { RealProofsResult } from "../measurements/realProofs.js";
import { renderRealProofsSection } from "./renderRealProofsSection.js";

const result: RealProofsResult = {
  cores: 2,
  proverThreads: 1,
  pending: 10,
  finalized: 10,
  proverCpuSecondsPerProof: 2.8412,
  facilitatorCpuPerMintMs: 3120.5,
  steadyMintsPerMinute: 14.2,
  mintsPerMinute: 12.9,
  drainSeconds: 46.5,
  acceptedToFinalizedMs: summarize([4100, 4400, 5200]),
  durationSeconds: 140,
  failures: [],
};

describe("renderRealProofsSection", () => {
  it("prints the real-proof figures beside the fixture ones and says where those come from", () => {
    const text = renderRealProofsSection(result, {
      acceptedToFinalizedMs: summarize([500, 600, 700]),
      steadyMintsPerMinute: 709,
      facilitatorCpuPerMintMs: 40.8,
      source: "section 4 of this run",
    }).join("\n");
    expect(text).toContain("## 10. Finalize with real proofs");
    expect(text).toContain("| CPU per proof, s (the prover thread) | 2.84 |");
    expect(text).toContain("| mints per minute on 2 cores, first to last mint | **14.2** | 709 |");
    expect(text).toContain("| accepted → finalized, ms (facilitator log timestamps) | 4400 / 5200 (n=3) | 600 / 700 (n=3) |");
    expect(text).toContain("(10 of 10 in 46.5 s)");
    expect(text).toContain("Fixture column: section 4 of this run.");
  });

  it("says not measured for a fixture figure it does not have, and lists failures", () => {
    const text = renderRealProofsSection({ ...result, failures: ["1 pending payments not finalized within 900 s"] }).join("\n");
    expect(text).toContain("| facilitator CPU per finalized payment, ms (every thread) | 3121 | not measured |");
    expect(text).toContain("Failures: 1 pending payments not finalized within 900 s.");
  });
});
