/**
 * `make bench` (`node bench/dist/run.js`): starts the local stack once, runs every measurement of issue 9
 * side by side with the official x402 `exact` scheme on the same anvil, prints the table and writes it to
 * `bench/results.md` (plus the raw figures to `bench/results.json`). Progress goes to stderr.
 *
 * Order: first the in-process part of 9 (the Poseidon search paths timed on this thread, this core's IFMA
 * ceiling, a sampled profile), on a quiet machine before the stack starts; then 1 paid requests, 2 settle
 * floor and RPC counts, 5 agent start-up, 3 `/challenge` throughput (with the open-challenge RSS of 5) and
 * concurrent settles, 8 several instances on one PostgreSQL (its own facilitators and database, under a
 * minute; `runSharedInstances.ts` runs it alone), the sustained offers of 9 per version and search path
 * (facilitators of their own, and a v1 stack for the v1 rows), then 4 finalize, which mints the payments the
 * earlier sections left pending and times single payments beside a facilitator of its own with
 * `witnesses = "indexer"` (`runFinalize.ts` runs it alone), 7 privacy (its own facilitators, about 90 s; `runPrivacy.ts` runs it
 * alone), 10 real proofs (its own stack of real Groth16 proofs, two to three minutes;
 * `runRealProofs.ts` runs it alone), 11 settle latency under confirmations (its own stack mining a block a
 * second, about a minute and a half; `runConfirmations.ts` runs it alone), and last 12 startup with a large
 * payment history (its own facilitators on this stack with the indexer back, about half a minute;
 * `runLargeHistory.ts` runs it alone). Counts come from `BENCH_*` variables (see `harness/benchConfig.ts` and
 * `measurements/realProofs.ts`).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FIXTURE_PROVER_PRIVATE_KEY, startIndexer, startStack } from "@svc/anvil-fixtures";
import { benchAccounts, fundBenchAccounts } from "./harness/benchAccounts.js";
import { loadBenchConfig } from "./harness/benchConfig.js";
import type { BenchContext } from "./harness/benchContext.js";
import { BenchError } from "./harness/benchError.js";
import { describeMachine } from "./harness/machine.js";
import { findChildPids } from "./harness/procStats.js";
import { renderReport, type BenchResults } from "./harness/report.js";
import { startExactSide } from "./harness/startExactSide.js";
import { startOurFacilitator } from "./harness/startOurFacilitator.js";
import { startPayer } from "./harness/startPayer.js";
import { measureAgentStartup } from "./measurements/agentStartup.js";
import { measureChallengeThroughput } from "./measurements/challengeThroughput.js";
import { measureConcurrentSettles } from "./measurements/concurrentSettles.js";
import { measureConfirmationLatency } from "./measurements/confirmationLatency.js";
import { measureFacilitatorMemory, measureIdleMemory } from "./measurements/facilitatorMemory.js";
import { measureFinalizeTiming } from "./measurements/finalizeTiming.js";
import { measureWitnessTree } from "./measurements/witnessTree.js";
import { measureLargeHistoryStartup } from "./measurements/largeHistoryStartup.js";
import { measurePaidRequestLatency } from "./measurements/paidRequestLatency.js";
import { measurePoseidonPaths } from "./measurements/poseidonPaths.js";
import { measurePrivacy } from "./measurements/privacyAnonymity.js";
import { measureRealProofs, realProofsConfig } from "./measurements/realProofs.js";
import { measureRpcRoundTrips } from "./measurements/rpcRoundTrips.js";
import { measureSettleFloor } from "./measurements/settleFloor.js";
import { measureSharedInstances } from "./measurements/sharedInstances.js";
import { measureSustainedOffers } from "./measurements/sustainedOffers.js";

/** List price of our `/weather` (0.001 zERC20; the offer adds the stack's 1% payer fee). */
const OURS_PRICE = "1000000000000000";
/** Price of the exact `/weather` (0.001 of the 6-decimal EIP-3009 token). */
const EXACT_PRICE = "1000";

const BENCH_DIR = fileURLToPath(new URL("../", import.meta.url));
const runStarted = performance.now();

function progress(message: string): void {
  const elapsed = Math.round((performance.now() - runStarted) / 1000);
  process.stderr.write(`[bench ${String(Math.floor(elapsed / 60)).padStart(2, "0")}:${String(elapsed % 60).padStart(2, "0")}] ${message}\n`);
}

async function main(): Promise<void> {
  const config = loadBenchConfig(process.env);
  const machine = describeMachine();
  const dir = await mkdtemp(join(tmpdir(), "svc-bench-"));
  const stoppers: (() => Promise<unknown>)[] = [async () => rm(dir, { recursive: true, force: true })];
  const stopAll = async () => {
    while (stoppers.length > 0)
      await stoppers
        .pop()?.()
        .catch(() => undefined);
  };
  process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));
  try {
    const poseidonPaths = await measurePoseidonPaths(dir, progress);
    progress("section 13: the followed transfer tree, in process (20,000 leaves, twice)");
    const witnessTree = measureWitnessTree({ leaves: 20_000, tracked: 100 });
    progress("starting the local stack (anvil, contracts, fixture indexer and decider)");
    const stack = await startStack({ dir, facilitatorPort: 0, rootIntervalMs: 0 });
    stoppers.push(stack.stop);
    // Closed through sections 1-3 and 5: the payments they accept stay pending for section 4, which brings
    // an indexer back on the same port, and its log polling stays out of anvil's CPU figures meanwhile.
    const indexerPort = Number(new URL(stack.indexer.url).port);
    await stack.indexer.close();
    const anvilPid = findChildPids(process.pid, "anvil")[0];
    if (anvilPid === undefined) throw new BenchError("could not find the anvil process");

    progress("starting our facilitator + provider and the exact facilitator + provider");
    const ours = await startOurFacilitator({
      stack,
      dir,
      name: "facilitator",
      price: OURS_PRICE,
      // The stack's 1 s finalize loop; its payments wait for a root while the indexer is down (see finalizeTiming.ts). A long
      // TTL keeps prepared offers valid and the payments' burn secrets in memory until they are minted.
      overrides: { finalizeIntervalMs: 1000, challengeTtlSeconds: 1800, maxOpenChallenges: 1000 },
    });
    stoppers.push(ours.stop);
    const exact = await startExactSide({ stack, price: EXACT_PRICE });
    stoppers.push(exact.stop);
    const payer = await startPayer({
      rpcUrl: stack.deployment.rpcUrl,
      chainId: stack.deployment.chainId,
      oursAsset: stack.deployment.token,
      exactAsset: stack.deployment.usdc3009,
      maxAmount: "1000000000000000000",
    });
    stoppers.push(payer.stop);
    const accounts = benchAccounts(Math.max(config.concurrent, 8));
    await fundBenchAccounts({ deployment: stack.deployment, accounts, zerc20: 10n ** 18n, usdc: 10n ** 6n });

    const context: BenchContext = {
      dir,
      stack,
      anvilPid,
      ours,
      exact,
      payer,
      payerKey: stack.deployment.accounts.payer.privateKey,
      accounts,
      config,
      progress,
    };
    progress("waiting for our facilitator's first 16 burn addresses");
    await ours.waitForFullStock();
    const idle = await measureIdleMemory(context);

    const paid = await measurePaidRequestLatency(context);
    const settleFloor = await measureSettleFloor(context);
    const rpc = await measureRpcRoundTrips(context);
    const agent = await measureAgentStartup(context);
    const challenge = await measureChallengeThroughput(context);
    const memory = await measureFacilitatorMemory(context, idle, challenge.memorySamples);
    const concurrent = await measureConcurrentSettles(context);
    const sharedInstances = await measureSharedInstances(context);
    const sustained = await measureSustainedOffers(context, poseidonPaths);
    const finalize = await measureFinalizeTiming(context, indexerPort);
    const privacy = await measurePrivacy(context, indexerPort);
    const realProofs = await measureRealProofs({ dir: join(dir, "real-proofs"), config: realProofsConfig(process.env), progress });
    const confirmations = await measureConfirmationLatency({ dir: join(dir, "confirmations"), runs: config.confirmationRuns, progress });
    // `/readyz` checks the indexer, closed since section 7: back on the same URL for section 12's starts.
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
    stoppers.push(indexer.close);
    const largeHistory = await measureLargeHistoryStartup({ dir, stack, progress, records: config.historyRecords });

    const results: BenchResults = {
      machine: { ...machine, loadAtEnd: Math.round((loadavg()[0] ?? 0) * 100) / 100 },
      config,
      durationSeconds: (performance.now() - runStarted) / 1000,
      paid,
      settleFloor,
      rpc,
      challenge,
      concurrent,
      finalize,
      memory,
      agent,
      privacy,
      sharedInstances,
      poseidon: { paths: poseidonPaths, sustained },
      realProofs,
      confirmations,
      largeHistory,
      witnessTree,
    };
    const report = renderReport(results);
    await writeFile(join(BENCH_DIR, "results.md"), report);
    await writeFile(join(BENCH_DIR, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(report);
    progress(`done in ${Math.round(results.durationSeconds)} s; wrote bench/results.md and bench/results.json`);
  } finally {
    await stopAll();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`);
  process.exit(1);
});
