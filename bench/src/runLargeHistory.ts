/**
 * `node bench/dist/runLargeHistory.js`: section 12 of `make bench` on its own (under a minute after the stack
 * is up with the default million records). Starts the local stack, writes the synthetic history, starts the
 * facilitator with an empty and with the large history, prints that section of the report to stdout and its
 * raw figures as one JSON line to stderr; it writes no results file. Progress goes to stderr.
 * `BENCH_HISTORY_RECORDS` changes the line count.
 */
import { loadBenchConfig } from "./harness/benchConfig.js";
import { runSection } from "./harness/runSection.js";
import { renderLargeHistorySection } from "./largeHistory/renderLargeHistorySection.js";
import { measureLargeHistoryStartup } from "./measurements/largeHistoryStartup.js";

runSection("history", async ({ dir, stack, progress }) => {
  const { historyRecords } = loadBenchConfig(process.env);
  const result = await measureLargeHistoryStartup({ dir, stack, progress, records: historyRecords });
  process.stdout.write(`${renderLargeHistorySection(result).join("\n")}\n`);
  process.stderr.write(`${JSON.stringify(result)}\n`);
});
