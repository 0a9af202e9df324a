/**
 * A child program for the sampling profiler: `node searchProcess.js <path> <v2 searches> <v1 searches>` runs
 * the first searches of each version's fixed sequence on one native path and exits. In a process of its
 * own, the profile holds the search and Node's start-up only, never the bench's servers.
 */
import { NativePoseidonPathSchema, selectPoseidon } from "@svc/scheme";
import { BenchError } from "../harness/benchError.js";
import { searchSeed } from "./searchSeeds.js";

const [path, v2, v1] = process.argv.slice(2);
const parsed = NativePoseidonPathSchema.safeParse(path);
const v2Searches = Number(v2);
const v1Searches = Number(v1);
if (!parsed.success || !Number.isInteger(v2Searches) || !Number.isInteger(v1Searches)) {
  throw new BenchError("usage: searchProcess.js <path> <v2 searches> <v1 searches>");
}
const { implementation } = selectPoseidon("native", { path: parsed.data });
for (const [version, count] of [
  ["zerc20-v2", v2Searches],
  ["zerc20-v1", v1Searches],
] as const) {
  for (let index = 0; index < count; index++) {
    const { prefix, secretBase, powBits } = searchSeed(version, index);
    implementation.searchBurnNonce(prefix, secretBase, powBits);
  }
}
