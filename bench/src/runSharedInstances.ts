/**
 * `node bench/dist/runSharedInstances.js`: section 8 of `make bench` on its own (under a minute after the
 * stack is up). Starts the local stack, measures one and two facilitator instances on one PostgreSQL and
 * prints that section of the report to stdout; it writes no results file. Progress goes to stderr.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startStack } from "@svc/anvil-fixtures";
import { benchAccounts, fundBenchAccounts } from "./harness/benchAccounts.js";
import { startPayer } from "./harness/startPayer.js";
import { measureSharedInstances, SHARED_PAYERS } from "./measurements/sharedInstances.js";
import { renderSharedInstancesSection } from "./sharedStorage/renderSharedInstancesSection.js";

const runStarted = performance.now();

function progress(message: string): void {
  process.stderr.write(`[bench shared ${Math.round((performance.now() - runStarted) / 1000)} s] ${message}\n`);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "svc-bench-shared-"));
  const stoppers: (() => Promise<unknown>)[] = [async () => rm(dir, { recursive: true, force: true })];
  const stopAll = async () => {
    while (stoppers.length > 0)
      await stoppers
        .pop()?.()
        .catch(() => undefined);
  };
  process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));
  try {
    progress("starting the local stack");
    const stack = await startStack({ dir, facilitatorPort: 0, rootIntervalMs: 0 });
    stoppers.push(stack.stop);
    const payer = await startPayer({
      rpcUrl: stack.deployment.rpcUrl,
      chainId: stack.deployment.chainId,
      oursAsset: stack.deployment.token,
      exactAsset: stack.deployment.usdc3009,
      maxAmount: "1000000000000000000",
    });
    stoppers.push(payer.stop);
    const accounts = benchAccounts(SHARED_PAYERS);
    await fundBenchAccounts({ deployment: stack.deployment, accounts, zerc20: 10n ** 18n, usdc: 10n ** 6n });
    const result = await measureSharedInstances({ dir, stack, payer, payerKey: stack.deployment.accounts.payer.privateKey, accounts, progress });
    process.stdout.write(`${renderSharedInstancesSection(result).join("\n")}\n`);
    process.stderr.write(`${JSON.stringify(result)}\n`);
    progress(`done in ${Math.round((performance.now() - runStarted) / 1000)} s`);
  } finally {
    await stopAll();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench shared failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`);
  process.exit(1);
});
