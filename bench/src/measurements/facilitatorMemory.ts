/**
 * Section 5, the facilitator's share: resident memory of our facilitator when idle (stock of pre-derived
 * addresses full, before any request) next to the exact facilitator, and its growth with open challenges.
 *
 * Idle means settled, for both: our burn-address workers exit a few seconds after the stock is full, and
 * V8 keeps the young generation start-up grew (up to 32 MiB per process) until a garbage collection while
 * the process allocates little, which its memory reducer runs on its own within a minute or so of idleness.
 * So the bench waits for our workers to exit, then forces that collection in both processes through the
 * inspector, and reads the RSS once it stops changing. The RSS right when the stock fills is kept beside it.
 *
 * Reaching the default cap of 1000 open challenges costs 1000 derivations, about seventeen minutes of one
 * core on this machine, so by default the growth is taken from the challenges the throughput measurement
 * leaves open (about a hundred): the live heap after a forced GC (through the inspector) is regressed on the
 * number of open challenges, and the slope times 1000 is reported, marked as extrapolated, next to the RSS
 * growth actually measured over those challenges. `BENCH_OPEN_CHALLENGES=1000` measures it for real.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { BenchContext } from "../harness/benchContext.js";
import { memoryAfterGc } from "../harness/inspectorSession.js";
import { readRssBytes } from "../harness/procStats.js";
import { slope } from "../harness/stats.js";
import type { MemorySample } from "./challengeThroughput.js";

/** Idle RSS, read at the start of the run. */
export type IdleMemory = {
  /** Ours, settled: workers exited, after a forced GC. */
  oursBytes: number;
  /** The exact facilitator, settled the same way. */
  exactBytes: number;
  /** Ours right when the stock first filled, workers still alive, before any collection. */
  oursAtFullStockBytes: number;
  /** Seconds from the full stock until the last worker thread exited. */
  workersExitSeconds: number;
};

/** The target of the issue: an idle facilitator holds at most this much resident memory. */
export const IDLE_RSS_TARGET_BYTES = 120 * 1024 * 1024;

// How long the workers may take to exit (their idle time is 5 s) and the RSS to settle.
const WORKERS_EXIT_DEADLINE_MS = 30_000;
const SETTLE_DEADLINE_MS = 20_000;
// Settled: RSS within this much over the last few readings, one a second.
const SETTLE_TOLERANCE_BYTES = 512 * 1024;
const SETTLE_READINGS = 3;

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
export async function measureIdleMemory(context: Pick<BenchContext, "ours" | "exact">): Promise<IdleMemory> {
  const oursPid = context.ours.facilitatorPid;
  const exactPid = context.exact.facilitator.pid;
  const oursAtFullStockBytes = readRssBytes(oursPid);
  const waitStarted = performance.now();
  while (context.ours.workerThreads().length > 0 && performance.now() - waitStarted < WORKERS_EXIT_DEADLINE_MS) await sleep(250);
  const workersExitSeconds = (performance.now() - waitStarted) / 1000;
  await memoryAfterGc(context.ours.inspector);
  await memoryAfterGc(context.exact.inspector);
  return {
    oursBytes: await settledRss(oursPid),
    exactBytes: await settledRss(exactPid),
    oursAtFullStockBytes,
    workersExitSeconds,
  };
}

/** The RSS of `pid` once the last readings (one a second) agree, or the last reading at the deadline. */
async function settledRss(pid: number): Promise<number> {
  const readings: number[] = [];
  const started = performance.now();
  for (;;) {
    readings.push(readRssBytes(pid));
    const last = readings.slice(-SETTLE_READINGS);
    if (last.length === SETTLE_READINGS && Math.max(...last) - Math.min(...last) <= SETTLE_TOLERANCE_BYTES) return last[last.length - 1] ?? Number.NaN;
    if (performance.now() - started > SETTLE_DEADLINE_MS) return readings[readings.length - 1] ?? Number.NaN;
    await sleep(1000);
  }
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
