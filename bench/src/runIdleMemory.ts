/**
 * `node bench/dist/runIdleMemory.js`: the idle-RSS rows of section 5 on their own (about a minute after the
 * stack is up). Starts our facilitator and the `exact` one on the local stack, waits for our full burn-address
 * stock and for its workers to exit, forces a GC in both, and prints the settled RSS of each, their ratio and
 * the targets to stdout, the raw figures as one JSON line to stderr; it writes no results file.
 */
import { runSection } from "./harness/runSection.js";
import { startExactSide } from "./harness/startExactSide.js";
import { startOurFacilitator } from "./harness/startOurFacilitator.js";
import { measureIdleMemory } from "./measurements/facilitatorMemory.js";

const MIB = 1024 * 1024;
/** The #26 targets: at most 120 MiB, moonshot within 1.2x the `exact` facilitator. */
const TARGET_BYTES = 120 * MIB;
const MOONSHOT_RATIO = 1.2;

runSection("idle", async ({ dir, stack, progress }) => {
  progress("starting our facilitator and the exact facilitator");
  const ours = await startOurFacilitator({
    stack,
    dir,
    name: "facilitator",
    price: "1000000000000000",
    overrides: { finalizeIntervalMs: 1000, challengeTtlSeconds: 1800, maxOpenChallenges: 1000 },
  });
  const exact = await startExactSide({ stack, price: "1000" });
  try {
    progress("waiting for our facilitator's full burn-address stock");
    await ours.waitForFullStock();
    progress("waiting for the workers to exit and the RSS to settle");
    const idle = await measureIdleMemory({ ours, exact });
    const ratio = idle.oursBytes / idle.exactBytes;
    const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;
    process.stdout.write(
      [
        `our facilitator, idle: ${mib(idle.oursBytes)} (${mib(idle.oursAtFullStockBytes)} when the stock filled; workers exited after ${idle.workersExitSeconds.toFixed(1)} s)`,
        `exact facilitator, idle: ${mib(idle.exactBytes)}`,
        `ratio: ${ratio.toFixed(2)}x; target ≤ ${mib(TARGET_BYTES)}: ${idle.oursBytes <= TARGET_BYTES ? "met" : "missed"}; moonshot ≤ ${MOONSHOT_RATIO}x exact: ${ratio <= MOONSHOT_RATIO ? "met" : "missed"}`,
        "",
      ].join("\n"),
    );
    process.stderr.write(`${JSON.stringify(idle)}\n`);
  } finally {
    await exact.stop();
    await ours.stop();
  }
});
