/**
 * The report's section 13: the transfer tree the facilitator follows for its own Merkle witnesses
 * (`[finalize] witnesses = "self"`), measured in process: the tree time of an initial sync per 100,000 leaves,
 * CPU per appended leaf with and without kept paths, and the heap one kept path (one tracked witness) costs.
 */
import { formatFigure } from "../harness/formatFigure.js";
import type { WitnessTreeFigures } from "../measurements/witnessTree.js";

const figure = formatFigure;

/** The section's lines. */
export function renderWitnessTreeSection(figures: WitnessTreeFigures): string[] {
  const perHundredThousand = (figures.cpuMicrosPerLeaf * 100_000) / 1e6;
  return [
    "## 13. Our own Merkle witnesses: the followed transfer tree",
    "",
    `The incremental tree the finalize loop follows from the token's \`IndexedTransfer\` logs, in process (no chain): ${figures.leaves.toLocaleString("en-US")} leaves appended with no path kept, then again with ${figures.tracked} paths kept, spread over the leaves. An initial sync also reads the logs (one \`eth_getLogs\` per 2,000 blocks), not included here.`,
    "",
    "| what | value |",
    "|---|---|",
    `| initial sync, tree time per 100,000 leaves | **${figure(perHundredThousand)} s** |`,
    `| CPU per appended leaf, no path kept | ${figure(figures.cpuMicrosPerLeaf)} µs |`,
    `| CPU per appended leaf, ${figures.tracked} paths kept | ${figure(figures.cpuMicrosPerLeafTracked)} µs |`,
    `| heap per tracked witness (one kept path of 40 siblings) | ${figure(figures.heapBytesPerPath / 1024)} KiB${figures.gcExposed ? "" : " (no `--expose-gc`: a rough figure)"} |`,
    "",
  ];
}
