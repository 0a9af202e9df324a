/**
 * Section 4: the second phase of our settlement on the local stack: accepted → finalized for single payments,
 * and mints per minute with N accepted payments pending.
 *
 * Through sections 1-3 the facilitator runs its normal finalize loop (every 1 s, as `make stack` configures
 * it) but the indexer, and with it the root job, is down: each payment those sections accept (about a
 * hundred) waits for a proved root after its first pass and is skipped until one is, so they stay pending,
 * in memory, at the cost of one or two RPC round trips per pass. Here the indexer comes back on the same URL, with its root job driven by the bench
 * every 500 ms (the stack's default), and the drain is timed from the facilitator's own `payment_finalized`
 * log events; CPU and JSON-RPC work per mint are read over the drain. Then single payments are timed from
 * `payment_accepted` to `payment_finalized`, on this facilitator (Merkle paths from its followed transfer tree,
 * `[finalize] witnesses = "self"`, the default) and then, as many again, on a second facilitator of ours that
 * asks the indexer's `/proofs` for them (`witnesses = "indexer"`).
 *
 * Pending work is kept in the running facilitator on purpose: a restarted facilitator re-derives each burn
 * secret (about a second of CPU each) before it can mint, a recovery path rather than the steady state.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { FIXTURE_PROVER_PRIVATE_KEY, startIndexer, type RunningIndexer } from "@svc/anvil-fixtures";
import type { BenchContext } from "../harness/benchContext.js";
import { BenchError } from "../harness/benchError.js";
import { diffRpcCounts, type RpcCounts } from "../harness/countingRpcProxy.js";
import { parseLogEvents } from "../harness/facilitatorLog.js";
import { readProcessCpuMs } from "../harness/procStats.js";
import { startOurFacilitator, type OurFacilitator } from "../harness/startOurFacilitator.js";
import { summarize, type Summary } from "../harness/stats.js";

/** The stack's root job interval. */
const ROOT_INTERVAL_MS = 500;

/** Concurrent payers while the pending payments are created (each account pays sequentially). */
const CREATE_CONCURRENCY = 4;

/** What section 4 measured. */
export type FinalizeTimingResult = {
  /** From `payment_accepted` to `payment_finalized` in the facilitator's log, ms. */
  acceptedToFinalizedMs: Summary;
  /**
   * The same single payments on a second facilitator of ours that takes its Merkle paths from the indexer's
   * `/proofs` (`[finalize] witnesses = "indexer"`, with decoys) instead of its followed tree, ms.
   */
  indexerWitnessesAcceptedToFinalizedMs: Summary;
  /** `finalize_pass_failed` events after the indexer came back (each delays the next pass, up to 10 s). */
  passFailuresAfterResume: number;
  /** Accepted payments pending when the root job resumed. */
  pending: number;
  /** Pending payments finalized before the timeout. */
  finalized: number;
  /** Mints per minute over the drain (root job resumed → last finalized). */
  mintsPerMinute: number;
  /** Mints per minute between the first and the last finalized event. */
  steadyMintsPerMinute: number;
  /** Drain wall time (root job resumed → last finalized), s. */
  drainSeconds: number;
  /** From the last mint to the last fee transfer of the same pass, s. */
  feeSweepSeconds: number;
  /** From the root job's resumption to the first mint (the loop's failure backoff, up to 10 s), s. */
  firstMintAfterSeconds: number;
  /** Facilitator CPU per finalized payment (pass, proof, mint, fee transfer; burn-address worker excluded), ms. */
  facilitatorCpuPerMintMs: number;
  /** anvil CPU per finalized payment (mint and fee transfer), ms. */
  anvilCpuPerMintMs: number;
  /** JSON-RPC work of the facilitator per finalized payment (mint and fee transfer). */
  rpcPerMint: { roundTrips: number; calls: number; byMethod: Record<string, number> };
  /** Time to accept extra payments when sections 1-3 left fewer than N pending, s. */
  createSeconds: number;
  failures: string[];
};

/** A root job the bench can pause: `proveNow` every {@link ROOT_INTERVAL_MS} while running. */
function createRootJob(indexer: RunningIndexer) {
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<unknown> = Promise.resolve();
  const tick = () => {
    inFlight = indexer.proveNow().catch(() => undefined);
  };
  return {
    start: () => {
      if (timer) return;
      tick();
      timer = setInterval(tick, ROOT_INTERVAL_MS);
    },
    stop: async () => {
      clearInterval(timer);
      timer = undefined;
      await inFlight;
    },
  };
}

/** The challenge nonce of the accepted payment whose burn is `transaction`, from the facilitator's log. */
function nonceOfBurn(facilitator: OurFacilitator, transaction: string): string | undefined {
  return parseLogEvents(facilitator.facilitator.lines).find(
    (event) => event.event === "payment_accepted" && String(event.fields.burn_tx).toLowerCase() === transaction.toLowerCase(),
  )?.challengeNonce;
}

/** Epoch ms of `event` per challenge nonce. */
function times(facilitator: OurFacilitator, event: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const entry of parseLogEvents(facilitator.facilitator.lines)) {
    if (entry.event === event && entry.challengeNonce !== undefined && !found.has(entry.challengeNonce)) found.set(entry.challengeNonce, entry.ts);
  }
  return found;
}

/** The accepted settlements' challenge nonces, from `GET /admin/settlements?state=accepted`. */
async function acceptedNonces(facilitator: OurFacilitator): Promise<string[]> {
  const response = await fetch(`${facilitator.facilitator.url}/admin/settlements?state=accepted`, {
    headers: { authorization: `Bearer ${facilitator.adminToken}` },
  });
  const body: unknown = await response.json();
  const settlements = typeof body === "object" && body !== null && "settlements" in body && Array.isArray(body.settlements) ? body.settlements : [];
  return settlements
    .map((entry: unknown) => (typeof entry === "object" && entry !== null && "challengeNonce" in entry ? String(entry.challengeNonce).toLowerCase() : ""))
    .filter((nonce) => nonce !== "");
}

/** What section 4 runs on: the bench's parts but the exact side. */
export type FinalizeContext = Pick<BenchContext, "dir" | "stack" | "anvilPid" | "ours" | "payer" | "payerKey" | "accounts" | "config" | "progress">;

/** Times `config.finalizeRuns` single payments through `facilitator`'s provider from `payment_accepted` to `payment_finalized`, ms. */
async function timeSinglePayments(context: FinalizeContext, facilitator: OurFacilitator, failures: string[]): Promise<number[]> {
  const { payer, payerKey, config } = context;
  const url = `${facilitator.provider.url}/weather`;
  const latency: number[] = [];
  for (let run = 0; run < config.finalizeRuns; run++) {
    await facilitator.waitForFullStock();
    const paid = await payer.pay("permit", payerKey, url);
    const nonce = paid.transaction === undefined ? undefined : nonceOfBurn(facilitator, paid.transaction);
    if (paid.status !== 200 || nonce === undefined) {
      failures.push(`finalize latency payment (${facilitator.name}): HTTP ${paid.status} ${paid.errorReason ?? paid.error ?? ""}`.trim());
      continue;
    }
    const until = Date.now() + 60_000;
    while (!times(facilitator, "payment_finalized").has(nonce) && Date.now() < until) await sleep(25);
    const acceptedAt = times(facilitator, "payment_accepted").get(nonce);
    const finalizedAt = times(facilitator, "payment_finalized").get(nonce);
    if (acceptedAt === undefined || finalizedAt === undefined) failures.push(`payment ${nonce} (${facilitator.name}) not finalized within 60 s`);
    else latency.push(finalizedAt - acceptedAt);
  }
  return latency;
}

/**
 * The single payments again on a second facilitator of ours, configured as `ctx.ours` but with
 * `[finalize] witnesses = "indexer"`, on the same stack while the indexer and its root job run. `ctx.ours`
 * has nothing pending by then, so the two never mint at once with the stack's shared keys.
 */
async function timeIndexerWitnesses(context: FinalizeContext, failures: string[]): Promise<number[]> {
  const { stack, dir, ours, progress } = context;
  progress('finalize: accepted → finalized again on a facilitator with witnesses = "indexer"');
  let second: OurFacilitator;
  try {
    second = await startOurFacilitator({
      stack,
      dir,
      name: "finalize-indexer-witnesses",
      price: ours.price,
      overrides: { finalizeIntervalMs: 1000, challengeTtlSeconds: 1800, maxOpenChallenges: 1000, witnesses: "indexer" },
    });
  } catch (error) {
    failures.push(`the witnesses = "indexer" facilitator did not start: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
  try {
    return await timeSinglePayments(context, second, failures);
  } finally {
    await second.stop();
  }
}

/** Runs section 4 on `ctx.ours`, bringing the indexer back on `indexerPort` (the stack indexer's). */
export async function measureFinalizeTiming(context: FinalizeContext, indexerPort: number): Promise<FinalizeTimingResult> {
  const { stack, payer, accounts, config, progress, ours } = context;
  const failures: string[] = [];
  const url = `${ours.provider.url}/weather`;

  const pendingNonces = await acceptedNonces(ours);
  const createStarted = performance.now();
  if (pendingNonces.length < config.pending) {
    const missing = config.pending - pendingNonces.length;
    progress(`finalize: ${pendingNonces.length} payments pending; accepting ${missing} more`);
    let next = 0;
    const perWorker = Math.max(1, Math.floor(accounts.length / CREATE_CONCURRENCY));
    const createOne = async (worker: number): Promise<void> => {
      // Worker w only ever uses accounts w, w + 4, w + 8, ...: each account pays strictly one at a time.
      for (let round = 0; ; round++) {
        const index = next++;
        if (index >= missing) return;
        const account = accounts[worker + CREATE_CONCURRENCY * (round % perWorker)];
        if (account === undefined) throw new BenchError(`finalize needs at least ${CREATE_CONCURRENCY} bench accounts`);
        const paid = await payer.pay("permit", account.privateKey, url);
        if (paid.status !== 200) failures.push(`pending payment: HTTP ${paid.status} ${paid.errorReason ?? paid.error ?? ""}`.trim());
      }
    };
    await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, (_, worker) => createOne(worker)));
    pendingNonces.splice(0, pendingNonces.length, ...(await acceptedNonces(ours)));
  }
  const createSeconds = (performance.now() - createStarted) / 1000;

  progress(`finalize: ${pendingNonces.length} payments pending; bringing the indexer back`);
  await ours.waitForFullStock();
  const indexer = await startIndexer({
    rpcUrl: stack.deployment.rpcUrl,
    chainId: stack.deployment.chainId,
    token: stack.deployment.token,
    verifier: stack.deployment.verifier,
    rootProverKey: stack.deployment.accounts.rootProver.privateKey,
    fixtureProverKey: FIXTURE_PROVER_PRIVATE_KEY,
    port: indexerPort,
    rootIntervalMs: 0,
  });
  const rootJob = createRootJob(indexer);
  const linesAtResume = ours.facilitator.lines.length;
  try {
    const facilitatorCpu = () => readProcessCpuMs(ours.facilitatorPid) - ours.workerCpuMs();
    const cpuBefore = { facilitator: facilitatorCpu(), anvil: readProcessCpuMs(context.anvilPid) };
    const rpcBefore: RpcCounts = ours.proxy.counts();
    const drainStarted = Date.now();
    rootJob.start();
    const deadline = Date.now() + 300_000;
    const countWith = (event: string) => {
      const seen = times(ours, event);
      return pendingNonces.filter((nonce) => seen.has(nonce)).length;
    };
    let lastReport = 0;
    while (countWith("payment_finalized") < pendingNonces.length && Date.now() < deadline) {
      await sleep(50);
      const done = countWith("payment_finalized");
      if (done - lastReport >= 25) {
        progress(`finalize: ${done}/${pendingNonces.length} minted`);
        lastReport = done;
      }
    }
    // The same pass then pays each finalized entry's fee (custodial mode: one treasury transfer each).
    progress("finalize: waiting for the fee transfers of the same pass");
    while (countWith("fee_settled") < pendingNonces.length && Date.now() < deadline) await sleep(50);
    const feesSettledAt = Date.now();
    const finalized = times(ours, "payment_finalized");
    const finalizedTimes = pendingNonces.map((nonce) => finalized.get(nonce)).filter((ts): ts is number => ts !== undefined);
    const minted = finalizedTimes.length;
    const lastFinalized = minted === 0 ? Number.NaN : Math.max(...finalizedTimes);
    const firstFinalized = minted === 0 ? Number.NaN : Math.min(...finalizedTimes);
    const feeTimes = [...times(ours, "fee_settled").entries()].filter(([nonce]) => pendingNonces.includes(nonce)).map(([, ts]) => ts);
    const lastFee = feeTimes.length === 0 ? feesSettledAt : Math.max(...feeTimes);
    const rpc = diffRpcCounts(rpcBefore, ours.proxy.counts());
    const facilitatorSpent = facilitatorCpu() - cpuBefore.facilitator;
    const anvilSpent = readProcessCpuMs(context.anvilPid) - cpuBefore.anvil;
    if (minted < pendingNonces.length) failures.push(`${pendingNonces.length - minted} pending payments not finalized within 300 s`);
    if (feeTimes.length < minted) failures.push(`${minted - feeTimes.length} finalized payments without a settled fee within 300 s`);
    const drainSeconds = (lastFinalized - drainStarted) / 1000;
    const perMint = (value: number) => (minted === 0 ? Number.NaN : value / minted);

    progress("finalize: accepted → finalized, root job every 500 ms");
    const latency = await timeSinglePayments(context, ours, failures);
    // Counted before the second facilitator runs: its failures are its own.
    const passFailures = parseLogEvents(ours.facilitator.lines.slice(linesAtResume)).filter((event) => event.event === "finalize_pass_failed").length;
    const indexerLatency = await timeIndexerWitnesses(context, failures);
    return {
      acceptedToFinalizedMs: summarize(latency),
      indexerWitnessesAcceptedToFinalizedMs: summarize(indexerLatency),
      passFailuresAfterResume: passFailures,
      pending: pendingNonces.length,
      finalized: minted,
      mintsPerMinute: minted === 0 ? Number.NaN : (minted / drainSeconds) * 60,
      steadyMintsPerMinute: minted < 2 ? Number.NaN : ((minted - 1) / ((lastFinalized - firstFinalized) / 1000)) * 60,
      drainSeconds,
      feeSweepSeconds: (lastFee - lastFinalized) / 1000,
      firstMintAfterSeconds: (firstFinalized - drainStarted) / 1000,
      facilitatorCpuPerMintMs: perMint(facilitatorSpent),
      anvilCpuPerMintMs: perMint(anvilSpent),
      rpcPerMint: {
        roundTrips: perMint(rpc.roundTrips),
        calls: perMint(rpc.calls),
        byMethod: Object.fromEntries(Object.entries(rpc.byMethod).map(([method, count]) => [method, perMint(count)])),
      },
      createSeconds,
      failures,
    };
  } finally {
    await rootJob.stop();
    await indexer.close();
  }
}
