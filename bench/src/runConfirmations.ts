/**
 * `node bench/dist/runConfirmations.js`: section 11 of `make bench` on its own (about a minute and a half).
 * Runs the section on its own stack, whose anvil mines a block a second, prints it to stdout and its raw
 * figures as one JSON line to stderr; it writes no results file. Progress goes to stderr.
 * `BENCH_CONFIRMATION_RUNS` changes its run count.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderConfirmationsSection } from "./confirmations/renderConfirmationsSection.js";
import { loadBenchConfig } from "./harness/benchConfig.js";
import { measureConfirmationLatency } from "./measurements/confirmationLatency.js";

const started = performance.now();
const progress = (message: string) => process.stderr.write(`[bench confirmations ${Math.round((performance.now() - started) / 1000)} s] ${message}\n`);

async function main(): Promise<void> {
  const { confirmationRuns } = loadBenchConfig(process.env);
  const dir = await mkdtemp(join(tmpdir(), "svc-bench-confirmations-"));
  try {
    const result = await measureConfirmationLatency({ dir, runs: confirmationRuns, progress });
    process.stdout.write(`${renderConfirmationsSection(result).join("\n")}\n`);
    process.stderr.write(`${JSON.stringify(result)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench confirmations failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`);
  process.exit(1);
});
