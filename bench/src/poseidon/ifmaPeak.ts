/**
 * Compiles and runs `ifmaPeak.c` (beside this file's source) with the machine's C compiler, the one the
 * scheme's addon was built with: this core's IFMA throughput and clock, the ceiling the `avx512-ifma`
 * search is measured against. Without a compiler, or on a processor without IFMA, the figures are absent
 * and the report says why.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../harness/repoPaths.js";

const run = promisify(execFile);

/** What the probe found. */
export type IfmaPeak =
  | { measured: true /** 512-bit `vpmadd52luq` retired per ns on one core, best of three. */; ifmaPerNs: number; clockGhz: number }
  | { measured: false; reason: string };

const SOURCE = join(REPO_ROOT, "bench", "src", "poseidon", "ifmaPeak.c");

const isFiniteNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** Builds the probe into `dir` and runs it once (under a second). */
export async function measureIfmaPeak(dir: string): Promise<IfmaPeak> {
  const binary = join(dir, "ifma-peak");
  try {
    await run(process.env.CC ?? "cc", ["-O2", "-o", binary, SOURCE]);
  } catch (error) {
    return { measured: false, reason: `the probe did not compile (${error instanceof Error ? error.message.split("\n")[0] : String(error)})` };
  }
  const { stdout } = await run(binary);
  const parsed: unknown = JSON.parse(stdout);
  if (typeof parsed !== "object" || parsed === null || !("ifmaPerNs" in parsed) || !("clockGhz" in parsed)) {
    return { measured: false, reason: `the probe printed ${stdout.trim()}` };
  }
  const { ifmaPerNs, clockGhz } = parsed;
  if (!isFiniteNumber(clockGhz)) return { measured: false, reason: `the probe printed ${stdout.trim()}` };
  if (!isFiniteNumber(ifmaPerNs)) return { measured: false, reason: "this processor has no AVX-512 IFMA" };
  return { measured: true, ifmaPerNs, clockGhz };
}
