/**
 * `node bench/dist/runFinalize.js`: section 4 of `make bench` on its own. Starts the local stack with the
 * indexer down, our facilitator as `make bench` configures it and `BENCH_PENDING` payments left pending, then
 * brings the indexer back, times the drain and `BENCH_FINALIZE_RUNS` single payments accepted → finalized under
 * `witnesses = "self"` and, on a second facilitator, under `witnesses = "indexer"`. Prints that section of the
 * report to stdout and its raw figures as one JSON line to stderr; it writes no results file. Progress goes to
 * stderr.
 */
import { benchAccounts, fundBenchAccounts } from "./harness/benchAccounts.js";
import { loadBenchConfig } from "./harness/benchConfig.js";
import { BenchError } from "./harness/benchError.js";
import { findChildPids } from "./harness/procStats.js";
import { renderFinalizeSection } from "./harness/report.js";
import { runSection } from "./harness/runSection.js";
import { startOurFacilitator } from "./harness/startOurFacilitator.js";
import { measureFinalizeTiming } from "./measurements/finalizeTiming.js";

/** List price of our `/weather`, as in `make bench`. */
const OURS_PRICE = "1000000000000000";

runSection("finalize", async ({ dir, stack, payer, progress }) => {
  const config = loadBenchConfig(process.env);
  // Down until the section brings it back on the same URL, so the payments accepted meanwhile stay pending.
  const indexerPort = Number(new URL(stack.indexer.url).port);
  await stack.indexer.close();
  const anvilPid = findChildPids(process.pid, "anvil")[0];
  if (anvilPid === undefined) throw new BenchError("could not find the anvil process");
  const ours = await startOurFacilitator({
    stack,
    dir,
    name: "facilitator",
    price: OURS_PRICE,
    overrides: { finalizeIntervalMs: 1000, challengeTtlSeconds: 1800, maxOpenChallenges: 1000 },
  });
  try {
    const accounts = benchAccounts(8);
    await fundBenchAccounts({ deployment: stack.deployment, accounts, zerc20: 10n ** 18n, usdc: 10n ** 6n });
    progress("waiting for our facilitator's first burn addresses");
    await ours.waitForFullStock();
    const result = await measureFinalizeTiming(
      { dir, stack, anvilPid, ours, payer, payerKey: stack.deployment.accounts.payer.privateKey, accounts, config, progress },
      indexerPort,
    );
    process.stdout.write(`${renderFinalizeSection(result).join("\n")}\n`);
    process.stderr.write(`${JSON.stringify(result)}\n`);
  } finally {
    await ours.stop();
  }
});
