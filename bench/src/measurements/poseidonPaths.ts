/**
 * Section 9, in this process: what one burn address costs on each search path of the native Poseidon addon
 * (`avx512-ifma`, `avx2`, `mulx-adx`, `portable`), beside `poseidon-lite`. Per path and version it runs the
 * first searches of the fixed sequence (`poseidon/searchSeeds.ts`) and divides the thread's CPU by the
 * permutations hashed, the sum of nonce + 1 (the multi-lane paths hash up to seven more past the answer,
 * which this leaves out). So µs per permutation is the search path's own figure, call and set-up included.
 *
 * A v2 nonce is geometric with mean 65,536: a few dozen searches can average 20% above or below it, so the
 * CPU per address is given both as measured over these searches and as expected (µs per permutation times
 * 2^bits, what every address costs on average); the targets are judged on the expected one. The number of
 * searches per path is the power of two that fits a CPU budget (measured first on four v1 searches), so fast
 * paths get many and slow ones a few, and a rerun on the same machine runs the same searches.
 *
 * It also measures this core's IFMA ceiling (`poseidon/ifmaPeak.ts`) and samples the default path's
 * searches with `perf` (`poseidon/profileSearch.ts`), for the report's why.
 */
import {
  type NativePoseidonPath,
  NativePoseidonPathSchema,
  type PoseidonImplementation,
  type PoseidonImplementationName,
  PoseidonPathUnavailableError,
  poseidonChoice,
  type ProtocolVersion,
  selectPoseidon,
} from "@svc/scheme";
import { BenchError } from "../harness/benchError.js";
import { readThreadCpuMs } from "../harness/procStats.js";
import { summarize, type Summary } from "../harness/stats.js";
import { type IfmaPeak, measureIfmaPeak } from "../poseidon/ifmaPeak.js";
import { profileSearch, type SearchProfile } from "../poseidon/profileSearch.js";
import { searchSeed } from "../poseidon/searchSeeds.js";

/** Every search path of the addon, fastest first. */
export const POSEIDON_PATHS: readonly NativePoseidonPath[] = NativePoseidonPathSchema.options;

/** The two versions, with their widths. */
export const VERSIONS: readonly ProtocolVersion[] = ["zerc20-v1", "zerc20-v2"];

/** CPU each path may spend per version, and the bounds on its number of searches. */
export const SEARCH_BUDGET: Record<ProtocolVersion, { cpuMs: number; min: number; max: number }> = {
  "zerc20-v1": { cpuMs: 1_500, min: 16, max: 128 },
  "zerc20-v2": { cpuMs: 6_000, min: 4, max: 64 },
};

/** Single `poseidon-lite` hashes timed per width. */
export const POSEIDON_LITE_HASHES = 1_000;

/** One version's searches on one path. */
export type VersionCost = {
  searches: number;
  /** Permutations hashed: the sum of nonce + 1 over the searches. */
  permutations: number;
  /** CPU of the searches on this thread, ms. */
  cpuMs: number;
  usPerPermutation: number;
  /** Mean permutations per address over these searches (2^bits over all seeds). */
  meanPermutations: number;
  /** CPU per search, ms (its median follows the nonces of these seeds). */
  cpuMsPerSearch: Summary;
  /** CPU per address as measured: `cpuMs / searches`. */
  measuredMsPerAddress: number;
  /** CPU per address on average over all seeds: µs per permutation × 2^bits. */
  expectedMsPerAddress: number;
};

/** One path: its costs, or why this processor cannot run it. */
export type PathCost =
  | { path: NativePoseidonPath; available: true; byVersion: Record<ProtocolVersion, VersionCost> }
  | { path: NativePoseidonPath; available: false; reason: string };

/** What section 9 measured in process. */
export type PoseidonPathsResult = {
  /** What this process (and so an unconfigured facilitator) uses: the implementation and, for the addon, its path. */
  implementation: PoseidonImplementationName;
  defaultPath: NativePoseidonPath | undefined;
  paths: PathCost[];
  /** µs of CPU per single `poseidon-lite` hash of each version's width, over {@link POSEIDON_LITE_HASHES} hashes. */
  poseidonLiteUsPerHash: Record<ProtocolVersion, number>;
  ifmaPeak: IfmaPeak;
  /** The default path's searches under `perf`. */
  profile: SearchProfile;
};

const threadCpuMs = () => readThreadCpuMs(process.pid, process.pid);

/** The largest power of two at most `value`, within `[min, max]`. */
function searchCount(value: number, min: number, max: number): number {
  const power = value >= 1 ? 2 ** Math.floor(Math.log2(value)) : 1;
  return Math.min(max, Math.max(min, power));
}

/**
 * Runs searches 0 .. count - 1 of `version`; returns each one's nonce and CPU ms. The event loop gets a turn
 * between searches, so the servers of this process keep answering when this runs beside them.
 */
async function runSearches(implementation: PoseidonImplementation, version: ProtocolVersion, count: number): Promise<{ nonces: number[]; cpuMs: number[] }> {
  const nonces: number[] = [];
  const cpuMs: number[] = [];
  for (let index = 0; index < count; index++) {
    await new Promise((resolve) => setImmediate(resolve));
    const { prefix, secretBase, powBits } = searchSeed(version, index);
    const started = threadCpuMs();
    const nonce = implementation.searchBurnNonce(prefix, secretBase, powBits);
    cpuMs.push(threadCpuMs() - started);
    nonces.push(Number(nonce));
  }
  return { nonces, cpuMs };
}

function versionCost(version: ProtocolVersion, nonces: readonly number[], cpuMs: readonly number[]): VersionCost {
  const permutations = nonces.reduce((sum, nonce) => sum + nonce + 1, 0);
  const total = cpuMs.reduce((sum, ms) => sum + ms, 0);
  const usPerPermutation = (total * 1000) / permutations;
  return {
    searches: nonces.length,
    permutations,
    cpuMs: total,
    usPerPermutation,
    meanPermutations: permutations / nonces.length,
    cpuMsPerSearch: summarize(cpuMs),
    measuredMsPerAddress: total / nonces.length,
    expectedMsPerAddress: (usPerPermutation * 2 ** searchSeed(version, 0).powBits) / 1000,
  };
}

/** µs of CPU per `poseidon-lite` hash of `version`'s burn-address rule (v1 width 3, v2 width 4). */
function timePoseidonLite(version: ProtocolVersion): number {
  const { implementation } = selectPoseidon("js");
  const inputs = Array.from({ length: POSEIDON_LITE_HASHES }, (_, index) => {
    const { prefix, secretBase } = searchSeed(version, index);
    return [...prefix, secretBase];
  });
  const hash = ([a = 0n, b = 0n, c]: bigint[]) => (c === undefined ? implementation.poseidon2(a, b) : implementation.poseidon3(a, b, c));
  hash(inputs[0] ?? []);
  const started = threadCpuMs();
  for (const input of inputs) hash(input);
  return ((threadCpuMs() - started) * 1000) / inputs.length;
}

/** Runs section 9's in-process measurements; `dir` holds the probe's binary and the profile's samples. */
export async function measurePoseidonPaths(dir: string, progress: (message: string) => void): Promise<PoseidonPathsResult> {
  const choice = poseidonChoice().implementation;
  const paths: PathCost[] = [];
  const reference = new Map<ProtocolVersion, number[]>();
  for (const path of POSEIDON_PATHS) {
    let implementation: PoseidonImplementation;
    try {
      implementation = selectPoseidon("native", { path }).implementation;
    } catch (error) {
      if (!(error instanceof PoseidonPathUnavailableError)) throw error;
      paths.push({ path, available: false, reason: "not available on this processor" });
      continue;
    }
    // Four v1 searches warm the path up and estimate its speed, which sizes every count below.
    const warm = await runSearches(implementation, "zerc20-v1", 4);
    const estimate = versionCost("zerc20-v1", warm.nonces, warm.cpuMs).usPerPermutation;
    const byVersion: Partial<Record<ProtocolVersion, VersionCost>> = {};
    for (const version of VERSIONS) {
      const budget = SEARCH_BUDGET[version];
      const count = searchCount(budget.cpuMs / ((estimate * 2 ** searchSeed(version, 0).powBits) / 1000), budget.min, budget.max);
      progress(`poseidon: ${path}, ${count} ${version} searches`);
      const { nonces, cpuMs } = await runSearches(implementation, version, count);
      const known = reference.get(version) ?? [];
      nonces.forEach((nonce, index) => {
        if (index < known.length && known[index] !== nonce) {
          throw new BenchError(`path ${path} found nonce ${nonce} for ${version} search ${index}, another path ${known[index]}`);
        }
      });
      if (nonces.length > known.length) reference.set(version, nonces);
      byVersion[version] = versionCost(version, nonces, cpuMs);
    }
    const v1 = byVersion["zerc20-v1"];
    const v2 = byVersion["zerc20-v2"];
    if (v1 === undefined || v2 === undefined) throw new BenchError(`path ${path} measured no searches`);
    paths.push({ path, available: true, byVersion: { "zerc20-v1": v1, "zerc20-v2": v2 } });
  }
  progress("poseidon: poseidon-lite hashes, the IFMA ceiling and a perf profile of the default path");
  const poseidonLiteUsPerHash = { "zerc20-v1": timePoseidonLite("zerc20-v1"), "zerc20-v2": timePoseidonLite("zerc20-v2") };
  const ifmaPeak = await measureIfmaPeak(dir);
  const profile: SearchProfile = choice.path === undefined ? { taken: false, reason: "the native addon is not in use" } : await profileSearch(dir, choice.path);
  return { implementation: choice.name, defaultPath: choice.path, paths, poseidonLiteUsPerHash, ifmaPeak, profile };
}
