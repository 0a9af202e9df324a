/**
 * Section 10: finalize at its true cost, with real Groth16 single-teleport proofs. The section runs on its own
 * stack, deployed with the verifier of the local circuit's real proofs (`singleTeleportVerifier: "groth16"`),
 * and its own facilitator, which that stack configures to prove with snarkjs in worker threads
 * (`[prover] kind = "snarkjs"`, one prover thread). Three figures:
 * - CPU seconds per proof: the CPU the facilitator's busiest thread (the prover thread) used over the drain
 *   below, per mint, beside the whole process's CPU per mint;
 * - mints per minute: `pending` permit payments accepted while the root job is paused, then the root job
 *   resumes (every 500 ms, the stack's default) and the drain is timed from the facilitator's own
 *   `payment_finalized` events, on however many cores this machine has;
 * - accepted → finalized: single payments one at a time with the root job running, from the facilitator's
 *   `payment_accepted` to `payment_finalized` events.
 * The same figures with fixture proofs are section 4's.
 */
import { availableParallelism } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { startStack } from "@svc/anvil-fixtures";
import { BenchError } from "../harness/benchError.js";
import { eventTimes, parseLogEvents } from "../harness/facilitatorLog.js";
import { readProcessCpuMs, readThreadCpu } from "../harness/procStats.js";
import { startOurFacilitator } from "../harness/startOurFacilitator.js";
import { startPayer } from "../harness/startPayer.js";
import { summarize, type Summary } from "../harness/stats.js";
import { waitForCpuIdle } from "../harness/waitForCpuIdle.js";

/** The root job's interval while it runs (the stack's default). */
const ROOT_INTERVAL_MS = 500;

/** List price of the section's `/weather`, base units. */
const PRICE = "1000000000000000";

/** How long the drain and each single payment may take before the section gives up on them. */
const DRAIN_TIMEOUT_MS = 900_000;
const PAYMENT_TIMEOUT_MS = 120_000;

/** Run counts of the section: `BENCH_REAL_PROOF_PENDING` (default 10) and `BENCH_REAL_PROOF_RUNS` (default 5). */
export type RealProofsConfig = {
  /** Accepted payments pending when the root job resumes. */
  pending: number;
  /** Single payments timed from accepted to finalized. */
  runs: number;
};

/** The section's run counts, from `BENCH_REAL_PROOF_PENDING` and `BENCH_REAL_PROOF_RUNS`; a malformed value is a {@link BenchError}. */
export function realProofsConfig(env: Record<string, string | undefined>): RealProofsConfig {
  const read = (variable: string, fallback: number) => {
    const raw = env[variable];
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1) throw new BenchError(`${variable} must be a positive integer`);
    return value;
  };
  return { pending: read("BENCH_REAL_PROOF_PENDING", 10), runs: read("BENCH_REAL_PROOF_RUNS", 5) };
}

/** What section 10 measured. */
export type RealProofsResult = {
  /** Cores of this machine (`os.availableParallelism()`). */
  cores: number;
  /** The facilitator's prover threads (`prover.concurrency`, the stack's default). */
  proverThreads: number;
  /** Accepted payments pending when the root job resumed. */
  pending: number;
  /** Of those, finalized before the timeout. */
  finalized: number;
  /** CPU seconds per proof: the busiest facilitator thread over the drain (the prover thread), per mint. */
  proverCpuSecondsPerProof: number;
  /** Facilitator CPU per finalized payment (every thread: proof, pass, mint, fee), ms. */
  facilitatorCpuPerMintMs: number;
  /** Mints per minute between the first and the last finalized event. */
  steadyMintsPerMinute: number;
  /** Mints per minute from the root job's resumption to the last finalized event. */
  mintsPerMinute: number;
  /** Drain wall time (root job resumed → last finalized), s. */
  drainSeconds: number;
  /** From `payment_accepted` to `payment_finalized` in the facilitator's log, ms. */
  acceptedToFinalizedMs: Summary;
  /** Section wall time, s (stack start included). */
  durationSeconds: number;
  failures: string[];
};

/** A root job the section drives: `proveNow` every {@link ROOT_INTERVAL_MS} while running. */
function driveRootJob(proveNow: () => Promise<unknown>) {
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<unknown> = Promise.resolve();
  const tick = () => {
    inFlight = proveNow().catch(() => undefined);
  };
  return {
    start: () => {
      tick();
      timer = setInterval(tick, ROOT_INTERVAL_MS);
    },
    stop: async () => {
      clearInterval(timer);
      await inFlight;
    },
  };
}

/** Runs section 10 in `dir` on a stack, payer and facilitator of its own, and stops them. */
export async function measureRealProofs(parameters: { dir: string; config: RealProofsConfig; progress: (message: string) => void }): Promise<RealProofsResult> {
  const { dir, config, progress } = parameters;
  const started = performance.now();
  const failures: string[] = [];
  const stoppers: (() => Promise<unknown>)[] = [];
  try {
    progress("real proofs: starting a stack that verifies real Groth16 single-teleport proofs (builds the circuit once if not cached)");
    const stack = await startStack({ dir, facilitatorPort: 0, rootIntervalMs: 0, singleTeleportVerifier: "groth16" });
    stoppers.push(stack.stop);
    if (stack.deployment.singleTeleportCircuit === undefined) throw new BenchError("the groth16 stack names no circuit files");
    const payer = await startPayer({
      rpcUrl: stack.deployment.rpcUrl,
      chainId: stack.deployment.chainId,
      oursAsset: stack.deployment.token,
      exactAsset: stack.deployment.usdc3009,
      maxAmount: "1000000000000000000",
    });
    stoppers.push(payer.stop);
    const ours = await startOurFacilitator({
      stack,
      dir,
      name: "real-proofs",
      price: PRICE,
      overrides: { finalizeIntervalMs: 1000, challengeTtlSeconds: 1800, maxOpenChallenges: 1000 },
    });
    stoppers.push(ours.stop);
    if (!ours.facilitator.lines.some((line) => line.includes('"event":"started"') && line.includes('"prover":"snarkjs"'))) {
      throw new BenchError("the section's facilitator does not prove with snarkjs");
    }
    const pid = ours.facilitatorPid;
    const url = `${ours.provider.url}/weather`;
    const payerKey = stack.deployment.accounts.payer.privateKey;
    const finalizedTimes = () => eventTimes(ours.facilitator.lines, "payment_finalized");
    const nonceOfBurn = (transaction: string) =>
      parseLogEvents(ours.facilitator.lines).find(
        (event) => event.event === "payment_accepted" && String(event.fields.burn_tx).toLowerCase() === transaction.toLowerCase(),
      )?.challengeNonce;

    progress(`real proofs: accepting ${config.pending} payments with the root job paused`);
    await waitForCpuIdle({ pid, timeoutMs: 300_000 });
    const pending: string[] = [];
    for (let index = 0; index < config.pending; index++) {
      const paid = await payer.pay("permit", payerKey, url);
      const nonce = paid.transaction === undefined ? undefined : nonceOfBurn(paid.transaction);
      if (paid.status !== 200 || nonce === undefined) failures.push(`pending payment: HTTP ${paid.status} ${paid.errorReason ?? paid.error ?? ""}`.trim());
      else pending.push(nonce);
    }
    // Every offer above took a stocked burn address: the workers refill the stock first, so the drain's CPU is the mints'.
    await waitForCpuIdle({ pid, timeoutMs: 300_000 });

    progress(`real proofs: ${pending.length} payments pending; resuming the root job`);
    const rootJob = driveRootJob(() => stack.indexer.proveNow());
    let drain: { minted: number; drainSeconds: number; steadyMintsPerMinute: number; cpuPerMintMs: number; proverCpuPerProofMs: number };
    const latency: number[] = [];
    try {
      const threadsBefore = readThreadCpu(pid);
      const cpuBefore = readProcessCpuMs(pid);
      const drainStarted = Date.now();
      rootJob.start();
      const deadline = Date.now() + DRAIN_TIMEOUT_MS;
      const done = () => pending.filter((nonce) => finalizedTimes().has(nonce)).length;
      let reported = 0;
      while (done() < pending.length && Date.now() < deadline) {
        await sleep(100);
        if (done() > reported) {
          reported = done();
          progress(`real proofs: ${reported}/${pending.length} minted`);
        }
      }
      const threadsAfter = readThreadCpu(pid);
      const cpuSpent = readProcessCpuMs(pid) - cpuBefore;
      const busiest = Math.max(0, ...[...threadsAfter].map(([tid, ns]) => (ns - (threadsBefore.get(tid) ?? 0)) / 1e6));
      const times = pending.map((nonce) => finalizedTimes().get(nonce)).filter((ts): ts is number => ts !== undefined);
      const minted = times.length;
      if (minted < pending.length) failures.push(`${pending.length - minted} pending payments not finalized within ${DRAIN_TIMEOUT_MS / 1000} s`);
      const first = Math.min(...times);
      const last = Math.max(...times);
      drain = {
        minted,
        drainSeconds: (last - drainStarted) / 1000,
        steadyMintsPerMinute: minted < 2 ? Number.NaN : ((minted - 1) / ((last - first) / 1000)) * 60,
        cpuPerMintMs: minted === 0 ? Number.NaN : cpuSpent / minted,
        proverCpuPerProofMs: minted === 0 ? Number.NaN : busiest / minted,
      };

      progress(`real proofs: accepted → finalized, ${config.runs} payments one at a time`);
      for (let run = 0; run < config.runs; run++) {
        await waitForCpuIdle({ pid, timeoutMs: 300_000 });
        const paid = await payer.pay("permit", payerKey, url);
        const nonce = paid.transaction === undefined ? undefined : nonceOfBurn(paid.transaction);
        if (paid.status !== 200 || nonce === undefined) {
          failures.push(`latency payment: HTTP ${paid.status} ${paid.errorReason ?? paid.error ?? ""}`.trim());
          continue;
        }
        const until = Date.now() + PAYMENT_TIMEOUT_MS;
        while (!finalizedTimes().has(nonce) && Date.now() < until) await sleep(25);
        const acceptedAt = eventTimes(ours.facilitator.lines, "payment_accepted").get(nonce);
        const finalizedAt = finalizedTimes().get(nonce);
        if (acceptedAt === undefined || finalizedAt === undefined) failures.push(`payment ${nonce} not finalized within ${PAYMENT_TIMEOUT_MS / 1000} s`);
        else latency.push(finalizedAt - acceptedAt);
      }
    } finally {
      await rootJob.stop();
    }
    return {
      cores: availableParallelism(),
      // The stack's configuration leaves prover.concurrency at its default.
      proverThreads: 1,
      pending: pending.length,
      finalized: drain.minted,
      proverCpuSecondsPerProof: drain.proverCpuPerProofMs / 1000,
      facilitatorCpuPerMintMs: drain.cpuPerMintMs,
      steadyMintsPerMinute: drain.steadyMintsPerMinute,
      mintsPerMinute: drain.minted === 0 ? Number.NaN : (drain.minted / drain.drainSeconds) * 60,
      drainSeconds: drain.drainSeconds,
      acceptedToFinalizedMs: summarize(latency),
      durationSeconds: (performance.now() - started) / 1000,
      failures,
    };
  } finally {
    while (stoppers.length > 0)
      await stoppers
        .pop()?.()
        .catch(() => undefined);
  }
}
