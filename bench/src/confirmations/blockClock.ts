/**
 * When to start a settle on a chain that mines on an interval. Sequential settles there are phase-locked:
 * each one returns just after a block, so the next would always start early in the interval and wait almost
 * a whole block for inclusion, which no real payer does. Section 11 starts each timed settle at a chosen
 * phase of the block interval instead (the same phase for every variant of a round, a different one each
 * round), so the figures average over where in the interval a payment arrives, as real traffic does, and the
 * variants of a round are compared at equal phase. The clock watches anvil's head to know when a block came.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { createPublicClient, http } from "viem";
import { summarize, type Summary } from "../harness/stats.js";
import { BenchError } from "../harness/benchError.js";

/** How often the clock reads the head: the precision of a start's phase (a read on loopback takes about a millisecond). */
export const HEAD_POLL_MS = 10;

/** The fractional part of the golden ratio: consecutive multiples spread evenly over [0, 1) for any count. */
const GOLDEN_FRACTION = 0.6180339887498949;

/**
 * The phase (a fraction of the block interval, in [0, 1)) round `round` starts its settles at: a
 * low-discrepancy sequence, so a handful of rounds already covers the interval evenly, and every run uses the same ones.
 * @example
 * roundPhase(0); // 0.5
 */
export function roundPhase(round: number): number {
  return (0.5 + round * GOLDEN_FRACTION) % 1;
}

/**
 * The first time at or after `nowMs` that lies `phase` of a block interval after a block, given when the last
 * block was seen and the interval (interval mining is fixed-rate, so later blocks follow at multiples of it).
 * @example
 * nextPhaseStart({ lastBlockAtMs: 1000, blockTimeMs: 1000, phase: 0.25, nowMs: 1500 }); // 2250
 */
export function nextPhaseStart(parameters: { lastBlockAtMs: number; blockTimeMs: number; phase: number; nowMs: number }): number {
  const { lastBlockAtMs, blockTimeMs, phase, nowMs } = parameters;
  const first = lastBlockAtMs + phase * blockTimeMs;
  if (first >= nowMs) return first;
  return first + Math.ceil((nowMs - first) / blockTimeMs) * blockTimeMs;
}

/** A running watch over the head of an interval-mining chain. */
export type BlockClock = {
  /** Resolves at the next moment `phase` (0..1) of a block interval after a block, by this process's clock. */
  waitForPhase: (phase: number) => Promise<void>;
  /** The intervals between the blocks seen so far, ms (as the clock saw them: ± {@link HEAD_POLL_MS}). */
  intervalsMs: () => Summary;
  stop: () => Promise<void>;
};

/** Starts watching `rpcUrl`'s head every {@link HEAD_POLL_MS} ms; resolves once two blocks have been seen (the interval is known to be running). */
export async function startBlockClock(parameters: { rpcUrl: string; blockTimeMs: number; timeoutMs?: number }): Promise<BlockClock> {
  const { blockTimeMs } = parameters;
  const client = createPublicClient({ transport: http(parameters.rpcUrl, { retryCount: 0 }) });
  const seenAt: number[] = [];
  let head: bigint | undefined;
  let running = true;
  const watching = (async () => {
    while (running) {
      const number = await client.getBlockNumber({ cacheTime: 0 }).catch(() => undefined);
      const now = performance.now();
      if (number !== undefined && number !== head) {
        // The first read only tells where the head is, not when it moved.
        if (head !== undefined) seenAt.push(now);
        head = number;
      }
      await sleep(HEAD_POLL_MS);
    }
  })();
  const stop = async () => {
    running = false;
    await watching;
  };
  const giveUpAt = performance.now() + (parameters.timeoutMs ?? 3 * blockTimeMs + 5_000);
  while (seenAt.length < 2) {
    if (performance.now() > giveUpAt) {
      await stop();
      throw new BenchError(`the chain did not mine two blocks within ${parameters.timeoutMs ?? 3 * blockTimeMs + 5_000} ms: is interval mining on?`);
    }
    await sleep(HEAD_POLL_MS);
  }
  return {
    waitForPhase: async (phase) => {
      const lastBlockAtMs = seenAt[seenAt.length - 1] ?? performance.now();
      const start = nextPhaseStart({ lastBlockAtMs, blockTimeMs, phase, nowMs: performance.now() });
      await sleep(Math.max(0, start - performance.now()));
    },
    intervalsMs: () => summarize(seenAt.slice(1).map((at, index) => at - (seenAt[index] ?? at))),
    stop,
  };
}
