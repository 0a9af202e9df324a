/**
 * `node --expose-gc bench/dist/runWitnessTree.js [leaves] [tracked]`: the incremental tree's rows on their own
 * (default 20,000 leaves, 100 kept paths; no stack). Prints CPU per appended leaf with and without kept paths,
 * the projected tree time of an initial sync of 100,000 leaves and the heap per kept path to stdout, the raw
 * figures as one JSON line to stderr; it writes no results file.
 */
import { measureWitnessTree } from "./measurements/witnessTree.js";

const leaves = Number(process.argv[2] ?? 20_000);
const tracked = Number(process.argv[3] ?? 100);
const figures = measureWitnessTree({ leaves, tracked });
process.stdout.write(
  [
    `appended ${figures.leaves} leaves: ${figures.cpuMicrosPerLeaf.toFixed(1)} µs CPU per leaf, ${figures.cpuMicrosPerLeafTracked.toFixed(1)} µs with ${figures.tracked} paths kept`,
    `tree time of an initial sync per 100,000 leaves: ${((figures.cpuMicrosPerLeaf * 100_000) / 1e6).toFixed(1)} s (log reads not included)`,
    `heap per kept path: ${(figures.heapBytesPerPath / 1024).toFixed(1)} KiB`,
    "",
  ].join("\n"),
);
process.stderr.write(`${JSON.stringify(figures)}\n`);
