/**
 * Where a search's time goes, sampled by Linux `perf` (the `cpu-clock` software event: virtual machines
 * rarely expose hardware counters) over a child process running the fixed searches on one path: the share
 * of each symbol, and inside the addon's hot symbols the share of each instruction class. Without `perf`,
 * or where it may not sample, the profile is absent and the report says why.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import type { NativePoseidonPath } from "@svc/scheme";
import { SEARCH_PROCESS } from "../harness/repoPaths.js";
import { type ClassShare, parsePerfAnnotate, parsePerfReport, type PerfSymbol } from "./perfOutput.js";

const run = promisify(execFile);

/** Searches of each version the profiled process runs: about 1.5 s on the IFMA path. */
export const PROFILED_SEARCHES = { "zerc20-v2": 8, "zerc20-v1": 64 } as const;

/** A symbol of the addon holding at least this share of the samples is broken down by instruction class. */
const HOT_SHARE = 0.05;

/** One hot symbol of the addon and its instruction classes. */
export type HotSymbol = { symbol: string; share: number; classes: ClassShare[] };

/** The sampled profile of one path's searches. */
export type SearchProfile =
  | {
      taken: true;
      path: NativePoseidonPath;
      /** The symbols with the most samples (at least 0.5% each), Node's start-up included. */
      symbols: PerfSymbol[];
      hot: HotSymbol[];
    }
  | { taken: false; reason: string };

/** Profiles {@link PROFILED_SEARCHES} on `path` under `perf record`, writing the samples into `dir`. */
export async function profileSearch(dir: string, path: NativePoseidonPath): Promise<SearchProfile> {
  const data = join(dir, `search-${path}.perf.data`);
  const perf = (args: string[]) => run("perf", args, { maxBuffer: 64 * 2 ** 20 });
  try {
    await perf([
      "record",
      "-e",
      "cpu-clock",
      "-F",
      "4999",
      "-o",
      data,
      "--",
      process.execPath,
      SEARCH_PROCESS,
      path,
      String(PROFILED_SEARCHES["zerc20-v2"]),
      String(PROFILED_SEARCHES["zerc20-v1"]),
    ]);
  } catch (error) {
    const reason = error instanceof Error && "code" in error && error.code === "ENOENT" ? "perf is not installed" : `perf record failed (${firstLine(error)})`;
    return { taken: false, reason };
  }
  const report = await perf(["report", "-i", data, "--stdio", "--no-children", "--sort", "dso,sym", "--percent-limit", "0.5"]);
  const symbols = parsePerfReport(report.stdout);
  const hot: HotSymbol[] = [];
  for (const entry of symbols.filter((symbol) => symbol.object.startsWith("poseidon") && symbol.share >= HOT_SHARE)) {
    const annotate = await perf(["annotate", "-i", data, "--stdio", "-s", entry.symbol]);
    hot.push({ symbol: entry.symbol, share: entry.share, classes: parsePerfAnnotate(annotate.stdout) });
  }
  return { taken: true, path, symbols: symbols.slice(0, 8), hot };
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}
