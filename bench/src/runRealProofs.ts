/**
 * `node bench/dist/runRealProofs.js`: section 10 of `make bench` on its own (two to three minutes on two
 * cores, plus a minute or two the first time the circuit is built). Runs the section on its own stack and
 * prints it to stdout, the fixture column taken from the last full run's `bench/results.json` when there is
 * one; it writes no results file. Progress goes to stderr. `BENCH_REAL_PROOF_PENDING` and
 * `BENCH_REAL_PROOF_RUNS` change its run counts.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureRealProofs, realProofsConfig } from "./measurements/realProofs.js";
import { renderRealProofsSection, type SignatureFigures } from "./realProofs/renderRealProofsSection.js";

const RESULTS_JSON = fileURLToPath(new URL("../results.json", import.meta.url));

/** Section 4's figures of the last full run, when `bench/results.json` has them. */
async function lastSignatureFigures(): Promise<SignatureFigures | undefined> {
  try {
    const results: unknown = JSON.parse(await readFile(RESULTS_JSON, "utf8"));
    if (typeof results !== "object" || results === null || !("finalize" in results) || typeof results.finalize !== "object" || results.finalize === null) {
      return undefined;
    }
    const finalize = results.finalize as Partial<SignatureFigures>;
    if (finalize.acceptedToFinalizedMs === undefined || finalize.steadyMintsPerMinute === undefined || finalize.facilitatorCpuPerMintMs === undefined)
      return undefined;
    return {
      acceptedToFinalizedMs: finalize.acceptedToFinalizedMs,
      steadyMintsPerMinute: finalize.steadyMintsPerMinute,
      facilitatorCpuPerMintMs: finalize.facilitatorCpuPerMintMs,
      source: "section 4 of the last full run (`bench/results.json`)",
    };
  } catch {
    return undefined;
  }
}

const started = performance.now();
const progress = (message: string) => process.stderr.write(`[bench real-proofs ${Math.round((performance.now() - started) / 1000)} s] ${message}\n`);

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "svc-bench-real-proofs-"));
  try {
    const result = await measureRealProofs({ dir, config: realProofsConfig(process.env), progress });
    process.stdout.write(`${renderRealProofsSection(result, await lastSignatureFigures()).join("\n")}\n`);
    process.stderr.write(`${JSON.stringify(result)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench real-proofs failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`);
  process.exit(1);
});
