/**
 * `node bench/dist/runPrivacy.js`: section 7 of `make bench` on its own (about a minute and a half). Starts
 * the local stack, runs the privacy scenario under both finalize policies and prints that section of the
 * report to stdout; it writes no results file. Progress goes to stderr.
 */
import { benchAccounts, fundBenchAccounts } from "./harness/benchAccounts.js";
import { runSection } from "./harness/runSection.js";
import { measurePrivacy } from "./measurements/privacyAnonymity.js";
import { observerVerdicts, privacyVerdict, renderPrivacySection } from "./privacy/renderPrivacySection.js";

/** Payer accounts: enough that each pays at most every few arrivals. */
const ACCOUNTS = 8;

runSection("privacy", async ({ dir, stack, payer, progress }) => {
  // The section runs its own indexer (with its root job) on the stack indexer's URL.
  const indexerPort = Number(new URL(stack.indexer.url).port);
  await stack.indexer.close();
  const accounts = benchAccounts(ACCOUNTS);
  await fundBenchAccounts({ deployment: stack.deployment, accounts, zerc20: 10n ** 18n, usdc: 10n ** 6n });
  const result = await measurePrivacy({ dir, stack, payer, accounts, progress }, indexerPort);
  const targets = [privacyVerdict(result), ...observerVerdicts(result)].map((verdict) => {
    const verdictText = verdict.met === undefined ? "not measured" : verdict.met ? "met" : "**missed**";
    return `Target: ${verdict.target}: ${verdict.measured} (${verdictText})`;
  });
  process.stdout.write(`${[...targets, "", ...renderPrivacySection(result)].join("\n")}\n`);
});
