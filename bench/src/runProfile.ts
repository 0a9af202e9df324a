/**
 * `make profile` (`node bench/dist/runProfile.js`): where our facilitator's main thread spends a paid request,
 * per path. The built facilitator runs under `node --cpu-prof` on a local stack (indexer closed, as in
 * sections 1-3 of `make bench`); the bench times `PROFILE_RUNS` (default 24) sequential requests of each path
 * through the payer and the demo provider (permit paid request, self-transfer paid request) or straight to the
 * facilitator (`POST /challenge`), each from a full burn-address stock, and notes each request's monotonic time
 * span. Once the facilitator exits, its main thread's `.cpuprofile` is cut to each path's spans and written to
 * `bench/profiles/<PROFILE_LABEL>/` (default `latest`): a flame graph per path (`<path>.svg`, self-contained)
 * and `top-frames.md`, the top self-time frames (with their heaviest callers) and packages per path with the
 * JSON-RPC round trips each request made (every trip through the facilitator's counting proxy during the
 * request, by sequence), plus the whole main-thread profile (`facilitator-main.cpuprofile`, for DevTools) and the spans (`windows.json`).
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BenchError } from "./harness/benchError.js";
import { formatFigure } from "./harness/formatFigure.js";
import { monotonicMicros, parseCpuProfile, renderFlameGraphSvg, windowProfile, type ProfileWindow, type WindowedProfile } from "./harness/flameGraph.js";
import { runSection } from "./harness/runSection.js";
import { startOurFacilitator, type OurFacilitator } from "./harness/startOurFacilitator.js";

/** The paths profiled, in order. */
const PATHS = ["challenge", "permit", "self-transfer"] as const;
type ProfiledPath = (typeof PATHS)[number];

const PATH_LABEL: Record<ProfiledPath, string> = {
  challenge: "`POST /challenge` (straight to the facilitator, from the stock)",
  permit: "permit paid request (payer → provider → `/challenge`, `/verify`, `/settle`)",
  "self-transfer": "self-transfer paid request (payer → provider → `/challenge`, `/verify`, `/settle`)",
};

/** Unprofiled requests per path first, so no profiled one pays for cold code or a first connection. */
const WARM_UP_RUNS = 3;
/** Sampling interval of `--cpu-prof`, µs (Node's default is 1000). */
const SAMPLING_US = 100;

const OUT_ROOT = fileURLToPath(new URL("../profiles/", import.meta.url));

type PathRecord = { windows: ProfileWindow[]; trips: string[][][] };

function readRuns(env: Record<string, string | undefined>): number {
  const raw = env.PROFILE_RUNS ?? "";
  if (raw === "") return 24;
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1) throw new BenchError("PROFILE_RUNS must be a positive integer");
  return runs;
}

function readLabel(env: Record<string, string | undefined>): string {
  const label = env.PROFILE_LABEL ?? "latest";
  if (!/^[a-z0-9-]+$/.test(label)) throw new BenchError("PROFILE_LABEL must be lowercase letters, digits and dashes");
  return label;
}

/** The trip sequences seen, most frequent first, as `n× a → [b + c]`. */
function tripSequences(trips: readonly string[][][]): string[] {
  const counted = new Map<string, number>();
  for (const request of trips) {
    const text =
      request.length === 0
        ? "none"
        : request
            .map((trip) => (trip.length > 1 ? `[${trip.map((m) => m.replace(/^eth_/, "")).join(" + ")}]` : (trip[0] ?? "?").replace(/^eth_/, "")))
            .join(" → ");
    counted.set(text, (counted.get(text) ?? 0) + 1);
  }
  return [...counted.entries()].sort((a, b) => b[1] - a[1]).map(([text, n]) => `${n}× ${text}`);
}

function summaryOf(path: ProfiledPath, profile: WindowedProfile, record: PathRecord): string {
  const runs = record.windows.length;
  const perRun = (ms: number) => formatFigure(ms / runs);
  const trips = record.trips.map((request) => request.length).sort((a, b) => a - b);
  const lines = [
    `### ${PATH_LABEL[path]}`,
    "",
    `${runs} requests; main-thread CPU sampled in them: ${perRun(profile.totalMs)} ms per request. JSON-RPC round trips per request: median ${trips[Math.floor((trips.length - 1) / 2)] ?? 0}, min ${trips[0] ?? 0}, max ${trips.at(-1) ?? 0}.`,
    "",
    "| self time, top frames | ms per request | share | heaviest callers (nearest first) |",
    "| --- | --- | --- | --- |",
    ...profile.topFrames.map(
      (entry) => `| \`${entry.name}\` | ${perRun(entry.ms)} | ${Math.round(entry.share * 100)}% | ${entry.callers ? `\`${entry.callers}\`` : ""} |`,
    ),
    "",
    `By package: ${profile.byPackage.map((entry) => `${entry.name} ${perRun(entry.ms)} ms (${Math.round(entry.share * 100)}%)`).join("; ")}.`,
    "",
    "Round-trip sequences (per request, each arrow one HTTP exchange with the node, `[...]` one batch):",
    "",
    ...tripSequences(record.trips).map((text) => `- ${text}`),
    "",
  ];
  return lines.join("\n");
}

runSection("profile", async ({ dir, stack, payer, progress }) => {
  const runs = readRuns(process.env);
  const label = readLabel(process.env);
  const profileDir = join(dir, "cpu-prof");
  // As in `make bench`: the indexer stays closed, so paid requests stay pending and no mint runs beside them.
  await stack.indexer.close();
  progress("starting our facilitator under --cpu-prof and the demo provider");
  const ours: OurFacilitator = await startOurFacilitator({
    stack,
    dir,
    name: "profiled",
    price: "1000000000000000",
    overrides: { finalizeIntervalMs: 1000, challengeTtlSeconds: 1800, maxOpenChallenges: 1000 },
    nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-interval=${SAMPLING_US}`],
  });
  const records = new Map<ProfiledPath, PathRecord>(PATHS.map((path) => [path, { windows: [], trips: [] }]));
  try {
    const payerKey = stack.deployment.accounts.payer.privateKey;
    const url = `${ours.provider.url}/weather`;
    const once = async (path: ProfiledPath): Promise<void> => {
      if (path === "challenge") {
        const answer = await ours.challenge();
        if (answer.status !== 200) throw new BenchError(`POST /challenge answered ${answer.status}`);
        return;
      }
      const result = await payer.pay(path, payerKey, url);
      if (result.status !== 200) throw new BenchError(`${path} paid request answered ${result.status} ${result.errorReason ?? result.error ?? ""}`);
    };
    // Blocks that never empty the stock: no request waits for a derivation.
    const perBlock = Math.max(1, ours.poolSize - 4);
    await ours.waitForFullStock();
    for (const path of PATHS) for (let run = 0; run < WARM_UP_RUNS; run++) await once(path);
    for (const path of PATHS) {
      progress(`profiling ${runs} × ${path}`);
      const record = records.get(path);
      if (record === undefined) throw new BenchError(`no record for ${path}`);
      for (let run = 0; run < runs; run++) {
        if (run % perBlock === 0) await ours.waitForFullStock();
        const before = ours.proxy.counts().roundTrips;
        const fromUs = monotonicMicros();
        await once(path);
        record.windows.push({ fromUs, toUs: monotonicMicros() });
        record.trips.push(ours.proxy.trips(before, ours.proxy.counts().roundTrips));
      }
    }
  } finally {
    await ours.stop();
  }

  // The main thread's profile: `CPU.<date>.<time>.<pid>.<thread id 0>.<seq>.cpuprofile`.
  const main = (await readdir(profileDir)).find((name) => name.includes(`.${ours.facilitatorPid}.0.`) && name.endsWith(".cpuprofile"));
  if (main === undefined) throw new BenchError("the facilitator wrote no main-thread .cpuprofile (did it exit cleanly?)");
  const raw = await readFile(join(profileDir, main), "utf8");
  const profile = parseCpuProfile(JSON.parse(raw));
  const outDir = join(OUT_ROOT, label);
  await mkdir(outDir, { recursive: true });
  // Whole, for DevTools or speedscope, with each path's request spans (not committed: several MB).
  await writeFile(join(outDir, "facilitator-main.cpuprofile"), raw);
  await writeFile(join(outDir, "windows.json"), `${JSON.stringify(Object.fromEntries(records))}\n`);
  const sections: string[] = [
    `## Profile \`${label}\``,
    "",
    `The built facilitator's main thread under \`node --cpu-prof\` (one sample every ${SAMPLING_US} µs), cut to each request's span; generated by \`make profile\` on ${new Date().toISOString().slice(0, 10)}. Flame graphs: \`${label}/<path>.svg\`.`,
    "",
  ];
  for (const path of PATHS) {
    const record = records.get(path);
    if (record === undefined) continue;
    const windowed = windowProfile(profile, record.windows);
    await writeFile(join(outDir, `${path}.svg`), renderFlameGraphSvg(windowed, `${path} (${record.windows.length} requests, main thread)`));
    sections.push(summaryOf(path, windowed, record));
  }
  const summary = sections.join("\n");
  await writeFile(join(outDir, "top-frames.md"), summary);
  process.stdout.write(summary);
  progress(`wrote bench/profiles/${label}/`);
});
