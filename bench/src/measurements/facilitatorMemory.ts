/**
 * Section 5, the facilitator's share: resident memory of our facilitator when idle (stock of pre-derived
 * addresses full, before any request) next to the exact facilitator, and its growth with open challenges.
 *
 * Reaching the default cap of 1000 open challenges costs 1000 derivations, about seventeen minutes of one
 * core on this machine, so by default the growth is taken from the challenges the throughput measurement
 * leaves open (about a hundred): the live heap after a forced GC (through the inspector) is regressed on the
 * number of open challenges, and the slope times 1000 is reported, marked as extrapolated, next to the RSS
 * growth actually measured over those challenges. `BENCH_OPEN_CHALLENGES=1000` measures it for real.
 */
import type { BenchContext } from "../harness/benchContext.js";
import { readRssBytes } from "../harness/procStats.js";
import { slope } from "../harness/stats.js";
import type { MemorySample } from "./challengeThroughput.js";

/** Idle RSS, read at the start of the run. */
export type IdleMemory = { oursBytes: number; exactBytes: number };

/** What the memory measurement found. */
export type FacilitatorMemoryResult = IdleMemory & {
  /** Open challenges of the first and the last sample. */
  openFrom: number;
  openTo: number;
  /** The cap the target refers to (`daemon.max_open_challenges`). */
  maxOpen: number;
  /** RSS growth from the first sample to the last, bytes (includes warm-up of the request path). */
  measuredRssGrowthBytes: number;
  /** Live heap (after a forced GC) growth from the first sample to the last, bytes. */
  measuredHeapGrowthBytes: number;
  /** Live heap retained per open challenge (least-squares slope after forced GCs), bytes. */
  heapPerChallengeBytes: number;
  /** RSS per open challenge (least-squares slope), bytes: noisier, the allocator grows in chunks. */
  rssPerChallengeBytes: number;
  /** Growth at `maxOpen` open challenges: the measured RSS growth when reached, else retained heap × `maxOpen`. */
  growthAtCapBytes: number;
  extrapolated: boolean;
  samples: MemorySample[];
};

/** Reads both facilitators' idle RSS (call once, right after our stock is first full). */
export function measureIdleMemory(context: BenchContext): IdleMemory {
  return { oursBytes: readRssBytes(context.ours.facilitatorPid), exactBytes: readRssBytes(context.exact.facilitator.pid) };
}

/** Turns the memory samples of the throughput measurement (and of a full fill, if asked) into the growth figures. */
export async function measureFacilitatorMemory(context: BenchContext, idle: IdleMemory, samples: readonly MemorySample[]): Promise<FacilitatorMemoryResult> {
  const { maxOpen } = await context.ours.openChallenges();
  const first = samples[0];
  const last = samples[samples.length - 1];
  const heapPerChallenge = slope(samples.map((sample) => ({ x: sample.open, y: sample.heapUsedBytes })));
  const rssPerChallenge = slope(samples.map((sample) => ({ x: sample.open, y: sample.rssBytes })));
  const openTo = last?.open ?? 0;
  const reached = openTo >= maxOpen;
  const measuredRssGrowth = first !== undefined && last !== undefined ? last.rssBytes - first.rssBytes : Number.NaN;
  return {
    ...idle,
    openFrom: first?.open ?? 0,
    openTo,
    maxOpen,
    measuredRssGrowthBytes: measuredRssGrowth,
    measuredHeapGrowthBytes: first !== undefined && last !== undefined ? last.heapUsedBytes - first.heapUsedBytes : Number.NaN,
    heapPerChallengeBytes: heapPerChallenge,
    rssPerChallengeBytes: rssPerChallenge,
    growthAtCapBytes: reached ? measuredRssGrowth : Math.max(0, heapPerChallenge) * maxOpen,
    extrapolated: !reached,
    samples: [...samples],
  };
}
