/**
 * `node bench/dist/runPrivacy.js`: section 7 of `make bench` on its own (about a minute and a half). Starts
 * the local stack, runs the privacy scenario under both finalize policies and prints that section of the
 * report to stdout; it writes no results file. Progress goes to stderr.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startStack } from "@svc/anvil-fixtures";
import { benchAccounts, fundBenchAccounts } from "./harness/benchAccounts.js";
import { startPayer } from "./harness/startPayer.js";
import { measurePrivacy } from "./measurements/privacyAnonymity.js";
import { privacyVerdict, renderPrivacySection } from "./privacy/renderPrivacySection.js";

/** Payer accounts: enough that each pays at most every few arrivals. */
const ACCOUNTS = 8;

const runStarted = performance.now();

function progress(message: string): void {
  process.stderr.write(`[bench privacy ${Math.round((performance.now() - runStarted) / 1000)} s] ${message}\n`);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "svc-bench-privacy-"));
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
    // The section runs its own indexer (with its root job) on the stack indexer's URL.
    const indexerPort = Number(new URL(stack.indexer.url).port);
    await stack.indexer.close();
    const payer = await startPayer({
      rpcUrl: stack.deployment.rpcUrl,
      chainId: stack.deployment.chainId,
      oursAsset: stack.deployment.token,
      exactAsset: stack.deployment.usdc3009,
      maxAmount: "1000000000000000000",
    });
    stoppers.push(payer.stop);
    const accounts = benchAccounts(ACCOUNTS);
    await fundBenchAccounts({ deployment: stack.deployment, accounts, zerc20: 10n ** 18n, usdc: 10n ** 6n });
    const result = await measurePrivacy({ dir, stack, payer, accounts, progress }, indexerPort);
    const verdict = privacyVerdict(result);
    const verdictText = verdict.met === undefined ? "not measured" : verdict.met ? "met" : "**missed**";
    process.stdout.write(`${[`Target: ${verdict.target}: ${verdict.measured} (${verdictText})`, "", ...renderPrivacySection(result)].join("\n")}\n`);
    progress(`done in ${Math.round((performance.now() - runStarted) / 1000)} s`);
  } finally {
    await stopAll();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench privacy failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`);
  process.exit(1);
});
