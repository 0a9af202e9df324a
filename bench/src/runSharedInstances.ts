/**
 * `node bench/dist/runSharedInstances.js`: section 8 of `make bench` on its own (under a minute after the
 * stack is up). Starts the local stack, measures one and two facilitator instances on one PostgreSQL and
 * prints that section of the report to stdout; it writes no results file. Progress goes to stderr.
 */
import { benchAccounts, fundBenchAccounts } from "./harness/benchAccounts.js";
import { runSection } from "./harness/runSection.js";
import { measureSharedInstances, SHARED_PAYERS } from "./measurements/sharedInstances.js";
import { renderSharedInstancesSection } from "./sharedStorage/renderSharedInstancesSection.js";

runSection("shared", async ({ dir, stack, payer, progress }) => {
  const accounts = benchAccounts(SHARED_PAYERS);
  await fundBenchAccounts({ deployment: stack.deployment, accounts, zerc20: 10n ** 18n, usdc: 10n ** 6n });
  const result = await measureSharedInstances({ dir, stack, payer, payerKey: stack.deployment.accounts.payer.privateKey, accounts, progress });
  process.stdout.write(`${renderSharedInstancesSection(result).join("\n")}\n`);
  process.stderr.write(`${JSON.stringify(result)}\n`);
});
