/**
 * The report's section 10: finalize with real Groth16 single-teleport proofs (the snarkjs prover adapter),
 * beside the same figures with fixture proofs (section 4) when they are at hand.
 */
import type { Summary } from "../harness/stats.js";
import type { RealProofsResult } from "../measurements/realProofs.js";
import { formatFigure } from "../harness/formatFigure.js";

/** Section 4's figures with fixture (signature) proofs, and where they come from. */
export type SignatureFigures = {
  acceptedToFinalizedMs: Summary;
  steadyMintsPerMinute: number;
  facilitatorCpuPerMintMs: number;
  /** Where the figures were measured ("this run", "the last full run, …"). */
  source: string;
};

const figure = formatFigure;

function medianP95(summary: Summary | undefined): string {
  return summary === undefined || summary.n === 0 ? "n/a" : `${figure(summary.median)} / ${figure(summary.p95)} (n=${summary.n})`;
}

function otherCores(cores: number): string {
  if (cores <= 1) return "no other core stays";
  return cores === 2 ? "the other core stays" : `the other ${cores - 1} cores stay`;
}

/** The Markdown lines of section 10. */
export function renderRealProofsSection(result: RealProofsResult, signature?: SignatureFigures): string[] {
  const fixture = (value: string) => (signature === undefined ? "not measured" : value);
  const rows: [string, string, string][] = [
    ["CPU per proof, s (the prover thread)", figure(result.proverCpuSecondsPerProof), "no proof: a fixture signature"],
    [
      "facilitator CPU per finalized payment, ms (every thread)",
      figure(result.facilitatorCpuPerMintMs),
      fixture(figure(signature?.facilitatorCpuPerMintMs ?? Number.NaN)),
    ],
    [
      `mints per minute on ${result.cores} cores, first to last mint`,
      `**${figure(result.steadyMintsPerMinute)}**`,
      fixture(figure(signature?.steadyMintsPerMinute ?? Number.NaN)),
    ],
    [
      "mints per minute, root job resumed to last mint",
      `${figure(result.mintsPerMinute)} (${result.finalized} of ${result.pending} in ${figure(result.drainSeconds)} s)`,
      "",
    ],
    ["accepted → finalized, ms (facilitator log timestamps)", medianP95(result.acceptedToFinalizedMs), fixture(medianP95(signature?.acceptedToFinalizedMs))],
  ];
  const failures = result.failures.length === 0 ? [] : ["", `Failures: ${result.failures.join("; ")}.`];
  return [
    "## 10. Finalize with real proofs",
    "",
    `Its own stack, deployed with the Solidity verifier snarkjs exports for the local single-teleport circuit (height 40, \`STACK_PROVER=groth16\`), and its own facilitator proving with the snarkjs adapter on ${result.proverThreads} worker thread (\`prover.concurrency\`; the finalize loop asks for one proof at a time) at nice 10. ` +
      `${result.pending} permit payments were accepted with the root job paused, then the root job resumed every 500 ms and the drain was timed from the facilitator's \`payment_finalized\` events; the CPU per proof is the busiest facilitator thread's over the drain, per mint. ` +
      `Then single payments one at a time, root job running. Fixture column: ${signature?.source ?? "not measured"}.`,
    "",
    "| what | real Groth16 proofs | fixture proofs |",
    "| --- | --- | --- |",
    ...rows.map((row) => `| ${row.join(" | ")} |`),
    ...failures,
    "",
    `What bounds the rate: one proof at a time on one prover thread, so a mint takes a proof's CPU plus the pass; ${otherCores(result.cores)} free for the request path and burn-address derivation. Proving the payments of one pass in parallel (\`prover.concurrency\` threads) would multiply the rate up to the core count. Section time: ${figure(result.durationSeconds)} s.`,
    "",
  ];
}
