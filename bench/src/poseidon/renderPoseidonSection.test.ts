import { describe, expect, it } from "vitest";
import { summarize } from "../harness/stats.js";
import type { VersionCost } from "../measurements/poseidonPaths.js";
import type { SustainedRun } from "../measurements/sustainedOffers.js";
import { type PoseidonResults, poseidonMissedNotes, poseidonVerdicts, renderPoseidonSection } from "./renderPoseidonSection.js";

function cost(usPerPermutation: number, bits: number, searches = 32): VersionCost {
  const meanPermutations = 2 ** bits;
  const cpuMs = (usPerPermutation * meanPermutations * searches) / 1000;
  return {
    searches,
    permutations: meanPermutations * searches,
    cpuMs,
    usPerPermutation,
    meanPermutations,
    cpuMsPerSearch: summarize([cpuMs / searches]),
    measuredMsPerAddress: cpuMs / searches,
    expectedMsPerAddress: (usPerPermutation * meanPermutations) / 1000,
  };
}

function run(protocol: SustainedRun["protocol"], offersPerSec: number, workerCpuMsPerOffer: number, otherCpuMsPerOffer = 0): SustainedRun {
  return {
    protocol,
    path: "avx512-ifma",
    workers: 2,
    stock: 4,
    offers: 60,
    load: { connections: 16, responses: 64, ok: 64, non2xx: 0, errors: 0, durationSec: 60 / offersPerSec, okPerSec: offersPerSec, latency: summarize([100]) },
    offersPerSec,
    workerCpuMsPerOffer,
    requestCpuMsPerOffer: 3,
    loadCpuMsPerOffer: 1,
    otherCpuMsPerOffer,
    idleMsPerOffer: 0,
    stealMsPerOffer: 0,
  };
}

/** A run on an IFMA machine; `ifmaUs` and the sustained rates are the figures the targets judge. */
function buildResults(overrides: { ifmaUs?: [number, number]; v2PerSec?: number; v1PerSec?: number; v1OtherMs?: number } = {}): PoseidonResults {
  const [w3, w4] = overrides.ifmaUs ?? [1.9, 2.4];
  return {
    paths: {
      implementation: "native",
      defaultPath: "avx512-ifma",
      paths: [
        { path: "avx512-ifma", available: true, byVersion: { "zerc20-v1": cost(w3, 12, 128), "zerc20-v2": cost(w4, 16) } },
        { path: "avx2", available: false, reason: "not available on this processor" },
        { path: "mulx-adx", available: true, byVersion: { "zerc20-v1": cost(12, 12, 16), "zerc20-v2": cost(14.4, 16, 4) } },
        { path: "portable", available: true, byVersion: { "zerc20-v1": cost(21, 12, 16), "zerc20-v2": cost(26, 16, 4) } },
      ],
      poseidonLiteUsPerHash: { "zerc20-v1": 230, "zerc20-v2": 290 },
      ifmaPeak: { measured: true, ifmaPerNs: 5.5, clockGhz: 2.9 },
      profile: {
        taken: true,
        path: "avx512-ifma",
        symbols: [{ object: "poseidon.node", symbol: "search_4", share: 0.8 }],
        hot: [
          {
            symbol: "search_4",
            share: 0.8,
            classes: [
              { name: "IFMA multiply (vpmadd52luq/huq)", share: 0.6 },
              { name: "vector add, shift, logic", share: 0.2 },
              { name: "vector loads, stores, moves, broadcasts", share: 0.2 },
              { name: "compares and masks", share: 0 },
              { name: "scalar and other", share: 0 },
            ],
          },
        ],
      },
    },
    sustained: {
      runs: [run("zerc20-v2", overrides.v2PerSec ?? 12.5, 158), run("zerc20-v1", overrides.v1PerSec ?? 160, 8, overrides.v1OtherMs)],
      skipped: [],
      v1StackSeconds: 1,
    },
  };
}

describe("poseidonVerdicts", () => {
  it("judges each target on the default path, the address cost on its expected figure", () => {
    expect(poseidonVerdicts(buildResults()).map((verdict) => verdict.met)).toEqual([true, true, true, true, true]);
    expect(poseidonVerdicts(buildResults({ ifmaUs: [2.5, 2.6], v2PerSec: 11, v1PerSec: 140 })).map((verdict) => verdict.met)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it("puts the moonshot beside the figure", () => {
    const [permutation] = poseidonVerdicts(buildResults({ ifmaUs: [0.9, 1.1] }));
    expect(permutation?.measured).toBe("1.10 µs on avx512-ifma (mulx-adx 14.4 µs, poseidon-lite 290 µs); moonshot 1.2 µs: met");
  });

  it("leaves a target unjudged when the addon is not in use", () => {
    const results = buildResults();
    const verdicts = poseidonVerdicts({ ...results, paths: { ...results.paths, implementation: "poseidon-lite", defaultPath: undefined } });
    expect(verdicts.map((verdict) => verdict.met)).toEqual([undefined, undefined, true, undefined, true]);
  });
});

describe("renderPoseidonSection", () => {
  it("prints every path, an unavailable one as such, and poseidon-lite beside them", () => {
    const text = renderPoseidonSection(buildResults()).join("\n");
    expect(text).toContain("## 9. Poseidon: burn addresses per search path");
    expect(text).toContain("| `avx512-ifma` (default here) | 1.90 | 2.40 | 6.00x | 7.78 / 7.78 (128, 4,096) | 157 / 157 (32, 65,536) | 12.7 |");
    expect(text).toContain("| `avx2` | not available on this processor |");
    expect(text).toContain("| `mulx-adx` (today's scalar code) | 12 | 14.4 | 1.00x |");
    expect(text).toContain("| `poseidon-lite` (single hashes) | 230 | 290 | 0.05x | 942 (implied) | 19,005 (implied) | 0.11 |");
    expect(text).toContain("| zerc20-v2 | `avx512-ifma` (default here) | 60 | **12.5** | ≥ 12: met |");
  });

  it("states the IFMA arithmetic against the measured ceiling", () => {
    const text = renderPoseidonSection(buildResults()).join("\n");
    expect(text).toContain("63,150 IFMA instructions at width 4 (7,894 per permutation)");
    expect(text).toContain("is 5.50 per ns at 2.90 GHz (1.90 per cycle): the search runs at 60% of it");
  });
});

describe("poseidonMissedNotes", () => {
  it("says nothing when every target is met", () => {
    expect(poseidonMissedNotes(buildResults())).toEqual([]);
  });

  it("explains a missed permutation with the ceiling and the profile, and a missed rate with the CPU per offer", () => {
    const notes = poseidonMissedNotes(buildResults({ ifmaUs: [1.9, 2.6], v2PerSec: 11 }));
    expect(notes).toHaveLength(3);
    expect(notes[0]).toContain("- **Width-4 permutation.** 2.60 µs on avx512-ifma against 2.5 µs.");
    expect(notes[0]).toContain("55% of this core's measured ceiling (5.50 per ns at 2.90 GHz)");
    expect(notes[0]).toContain("puts 80% of the samples in `search_4`, and 60% of those on the IFMA multiplies themselves");
    expect(notes[1]).toContain("Why, and what would close it: the permutation's cost, previous note.");
    expect(notes[2]).toContain("Each offer cost 162 ms of CPU: 158 ms of derivation on the workers (98%)");
  });

  it("puts a missed rate that the facilitator's own cost allows down to the other processes", () => {
    const [note] = poseidonMissedNotes(buildResults({ v1PerSec: 100, v1OtherMs: 8 }));
    expect(note).toContain("- **Sustained v1 offers.** 100 offers/s on avx512-ifma against 150/s.");
    expect(note).toContain("allows 167/s, above the target: this run missed it because other processes held 0.80 cores.");
  });
});
