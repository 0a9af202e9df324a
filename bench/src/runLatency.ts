/**
 * `node bench/dist/runLatency.js`: the latency parts of `make bench` on their own (issue 29's targets), on a
 * stack of their own set up as `run.ts` sets up sections 1-3: section 1 (paid requests), section 2 (settle floor
 * and RPC round trips), section 3 (`/challenge` from the stock and the concurrent settles). Counts come from the
 * same `BENCH_*` variables (small ones, e.g. `BENCH_PAID_RUNS=6 BENCH_RPC_RUNS=3`, give a quick look). Prints the
 * latency rows of the Targets table with their verdicts to stdout and the raw figures as one JSON line to
 * stderr; it writes no results file.
 */
import { loadBenchConfig } from "./harness/benchConfig.js";
import { benchAccounts, fundBenchAccounts } from "./harness/benchAccounts.js";
import type { BenchContext } from "./harness/benchContext.js";
import { BenchError } from "./harness/benchError.js";
import { findChildPids } from "./harness/procStats.js";
import { latencyVerdicts, renderVerdicts } from "./harness/report.js";
import { runSection } from "./harness/runSection.js";
import { startExactSide } from "./harness/startExactSide.js";
import { startOurFacilitator } from "./harness/startOurFacilitator.js";
import { measureChallengeThroughput } from "./measurements/challengeThroughput.js";
import { measureConcurrentSettles } from "./measurements/concurrentSettles.js";
import { measurePaidRequestLatency } from "./measurements/paidRequestLatency.js";
import { measureRpcRoundTrips } from "./measurements/rpcRoundTrips.js";
import { measureSettleFloor } from "./measurements/settleFloor.js";

runSection("latency", async ({ dir, stack, payer, progress }) => {
  const config = loadBenchConfig(process.env);
  // As in `make bench`: the payments stay pending, and the indexer's log polling stays out of the CPU figures.
  await stack.indexer.close();
  const anvilPid = findChildPids(process.pid, "anvil")[0];
  if (anvilPid === undefined) throw new BenchError("could not find the anvil process");
  progress("starting our facilitator + provider and the exact facilitator + provider");
  const ours = await startOurFacilitator({
    stack,
    dir,
    name: "facilitator",
    price: "1000000000000000",
    overrides: { finalizeIntervalMs: 1000, challengeTtlSeconds: 1800, maxOpenChallenges: 1000 },
  });
  try {
    const exact = await startExactSide({ stack, price: "1000" });
    try {
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
      progress("waiting for our facilitator's first burn addresses");
      await ours.waitForFullStock();
      const paid = await measurePaidRequestLatency(context);
      const settleFloor = await measureSettleFloor(context);
      const rpc = await measureRpcRoundTrips(context);
      const challenge = await measureChallengeThroughput(context);
      const concurrent = await measureConcurrentSettles(context);
      process.stdout.write(`${renderVerdicts(latencyVerdicts({ paid, settleFloor, rpc, challenge, concurrent }))}\n`);
      process.stderr.write(`${JSON.stringify({ config, paid, settleFloor, rpc, challenge, concurrent })}\n`);
    } finally {
      await exact.stop();
    }
  } finally {
    await ours.stop();
  }
});
