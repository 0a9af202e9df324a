/**
 * The report's section 9: burn addresses at v2 cost per search path of the native Poseidon addon, beside
 * `poseidon-lite` and today's scalar code (`mulx-adx`): µs per permutation, CPU per v1 and v2 address,
 * sustained offers per second with the stock empty; the five targets as rows of the report's targets table;
 * and for each missed one, the why, from the `perf` profile, the IFMA instruction count and this core's
 * IFMA ceiling.
 */
import type { PathCost, PoseidonPathsResult, VersionCost } from "../measurements/poseidonPaths.js";
import { SEARCH_BUDGET } from "../measurements/poseidonPaths.js";
import { SUSTAINED_CONNECTIONS, SUSTAINED_POOL_SIZE, type SustainedOffersResult, type SustainedRun } from "../measurements/sustainedOffers.js";
import { ifmaInstructionsPerStep, ifmaPartialRound } from "./ifmaInstructions.js";
import { PROFILED_SEARCHES } from "./profileSearch.js";

/** Everything section 9 measured. */
export type PoseidonResults = { paths: PoseidonPathsResult; sustained: SustainedOffersResult };

/** One target of the issue as a row of the report's targets table. */
export type PoseidonVerdict = { target: string; measured: string; met: boolean | undefined };

/** The issue's targets and moonshots. */
export const POSEIDON_TARGETS = {
  width4Us: { target: 2.5, moonshot: 1.2 },
  v2AddressMs: { target: 160, moonshot: 80 },
  v2OffersPerSec: { target: 12, moonshot: 25 },
  v1AddressMs: { target: 10 },
  v1OffersPerSec: { target: 150 },
} as const;

/** The lanes of one IFMA search step. */
/** Lanes per zmm group; a step runs two groups, each issuing the counted instructions. */
const IFMA_LANES = 8;

function figure(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  if (Number.isInteger(value)) return value.toLocaleString("en-US");
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return Math.round(value).toLocaleString("en-US");
  if (magnitude >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function times(a: number, b: number): string {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}x` : "n/a";
}

function percent(share: number): string {
  return Number.isFinite(share) ? `${Math.round(share * 100)}%` : "n/a";
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)];
}

type Available = Extract<PathCost, { available: true }>;

function availablePath(results: PoseidonPathsResult, path: string | undefined): Available | undefined {
  const cost = results.paths.find((entry) => entry.path === path);
  return cost?.available === true ? cost : undefined;
}

function sustainedRun(results: SustainedOffersResult, protocol: SustainedRun["protocol"]): SustainedRun | undefined {
  return results.runs.find((run) => run.protocol === protocol);
}

/** CPU of the whole machine per offer that went to this offer: workers, request path and the load generator. */
function offerCpuMs(run: SustainedRun): number {
  return run.workerCpuMsPerOffer + run.requestCpuMsPerOffer + run.loadCpuMsPerOffer;
}

function moonshot(met: boolean, value: string): string {
  return `moonshot ${value}: ${met ? "met" : "not met"}`;
}

/** The five targets of section 9, judged on the default path. */
export function poseidonVerdicts(results: PoseidonResults): PoseidonVerdict[] {
  const { paths, sustained } = results;
  const chosen = availablePath(paths, paths.defaultPath);
  const scalar = availablePath(paths, "mulx-adx");
  const v2 = chosen?.byVersion["zerc20-v2"];
  const v1 = chosen?.byVersion["zerc20-v1"];
  const on = chosen === undefined ? "" : ` on ${chosen.path}`;
  const v2Run = sustainedRun(sustained, "zerc20-v2");
  const v1Run = sustainedRun(sustained, "zerc20-v1");
  const cores = v2Run?.workers ?? v1Run?.workers;
  const { width4Us, v2AddressMs, v2OffersPerSec, v1AddressMs, v1OffersPerSec } = POSEIDON_TARGETS;
  const address = (cost: VersionCost, permutations: number) =>
    `${figure(cost.expectedMsPerAddress)} ms${on} (${figure(cost.usPerPermutation)} µs per permutation × ${figure(permutations)}); measured ${figure(cost.measuredMsPerAddress)} ms over ${cost.searches} searches averaging ${figure(cost.meanPermutations)} permutations`;
  const rate = (run: SustainedRun | undefined) =>
    run === undefined ? "not measured" : `${figure(run.offersPerSec)} /s${on} (${run.workers} workers, ${run.offers} offers past the stock)`;
  return [
    {
      target: `width-4 Poseidon permutation ≤ ${width4Us.target} µs on one core (moonshot ≤ ${width4Us.moonshot} µs)`,
      measured:
        v2 === undefined
          ? "not measured: the native addon is not in use"
          : `${figure(v2.usPerPermutation)} µs${on} (mulx-adx ${figure(scalar?.byVersion["zerc20-v2"].usPerPermutation ?? Number.NaN)} µs, poseidon-lite ${figure(paths.poseidonLiteUsPerHash["zerc20-v2"])} µs); ${moonshot(v2.usPerPermutation <= width4Us.moonshot, `${width4Us.moonshot} µs`)}`,
      met: v2 === undefined ? undefined : v2.usPerPermutation <= width4Us.target,
    },
    {
      target: `CPU per v2 burn address ≤ ${v2AddressMs.target} ms (moonshot ≤ ${v2AddressMs.moonshot} ms)`,
      measured:
        v2 === undefined
          ? "not measured"
          : `${address(v2, 2 ** 16)}; ${moonshot(v2.expectedMsPerAddress <= v2AddressMs.moonshot, `${v2AddressMs.moonshot} ms`)}`,
      met: v2 === undefined ? undefined : v2.expectedMsPerAddress <= v2AddressMs.target,
    },
    {
      target: `sustained v2 offers ≥ ${v2OffersPerSec.target}/s on ${cores ?? 2} cores with the stock empty (moonshot ≥ ${v2OffersPerSec.moonshot}/s)`,
      measured:
        v2Run === undefined ? "not measured" : `${rate(v2Run)}; ${moonshot(v2Run.offersPerSec >= v2OffersPerSec.moonshot, `${v2OffersPerSec.moonshot}/s`)}`,
      met: v2Run === undefined ? undefined : v2Run.offersPerSec >= v2OffersPerSec.target,
    },
    {
      target: `CPU per v1 burn address ≤ ${v1AddressMs.target} ms`,
      measured: v1 === undefined ? "not measured" : address(v1, 2 ** 12),
      met: v1 === undefined ? undefined : v1.expectedMsPerAddress <= v1AddressMs.target,
    },
    {
      target: `sustained v1 offers ≥ ${v1OffersPerSec.target}/s with the stock empty`,
      measured: rate(v1Run),
      met: v1Run === undefined ? undefined : v1Run.offersPerSec >= v1OffersPerSec.target,
    },
  ];
}

function pathLabel(results: PoseidonPathsResult, path: string): string {
  if (path === results.defaultPath) return `\`${path}\` (default here)`;
  if (path === "mulx-adx") return `\`${path}\` (today's scalar code)`;
  return `\`${path}\``;
}

function addressCell(cost: VersionCost): string {
  return `${figure(cost.expectedMsPerAddress)} / ${figure(cost.measuredMsPerAddress)} (${cost.searches}, ${figure(cost.meanPermutations)})`;
}

/** The IFMA arithmetic of the default path, when it is the IFMA one: instructions per step, the rate the search reaches, the ceiling. */
function ifmaArithmetic(results: PoseidonPathsResult): string[] {
  const ifma = availablePath(results, "avx512-ifma");
  if (ifma === undefined) return ["The IFMA arithmetic does not apply: this processor has no `avx512-ifma` path."];
  const lines: string[] = [];
  const step4 = ifmaInstructionsPerStep(4);
  const step3 = ifmaInstructionsPerStep(3);
  const us4 = ifma.byVersion["zerc20-v2"].usPerPermutation;
  const us3 = ifma.byVersion["zerc20-v1"].usPerPermutation;
  const rate4 = step4.total / (us4 * IFMA_LANES * 1000);
  const rate3 = step3.total / (us3 * IFMA_LANES * 1000);
  lines.push(
    `Each eight-lane group of the IFMA search (a step runs two groups side by side) issues ${figure(step4.total)} IFMA instructions at width 4 (${figure(step4.total / IFMA_LANES)} per permutation) and ${figure(step3.total)} at width 3, counted from \`scheme/native/lanes_rounds.h\` (\`bench/src/poseidon/ifmaInstructions.ts\`): at width 4 the first round takes ${figure(step4.firstRound)}, the three other opening full rounds ${figure(step4.openingRounds)}, the 56 partial rounds ${figure(step4.partialRounds)} (${percent(step4.partialRounds / step4.total)}), the four closing full rounds ${figure(step4.closingRounds)}. ` +
      `A partial round is one S-box (275: two squares and a product, each reduced) and the sparse matrix (570: row 0 as one dot product, and each of the three other elements reduced on its own, 105 each). ` +
      `At ${figure(us4)} µs per permutation the width-4 search retires ${figure(rate4)} IFMA instructions per ns (width 3: ${figure(rate3)} per ns).`,
  );
  const peak = results.ifmaPeak;
  if (!peak.measured) return [`${lines.join(" ")} This core's IFMA ceiling was not measured: ${peak.reason}.`];
  const floor4 = step4.total / IFMA_LANES / peak.ifmaPerNs / 1000;
  lines.push(
    `This core's ceiling, measured in the same run (\`bench/src/poseidon/ifmaPeak.c\`: twelve independent \`vpmadd52luq\` chains), is ${figure(peak.ifmaPerNs)} per ns at ${figure(peak.clockGhz)} GHz (${figure(peak.ifmaPerNs / peak.clockGhz)} per cycle): the search runs at ${percent(rate4 / peak.ifmaPerNs)} of it. ` +
      `With today's instruction count the multiplier alone needs ${figure(floor4)} µs per width-4 permutation, ${figure((floor4 * 2 ** 16) / 1000)} ms per v2 address: the floor no scheduling can beat without fewer IFMA instructions.`,
  );
  return [lines.join(" ")];
}

function profileLines(results: PoseidonPathsResult): string[] {
  const { profile } = results;
  if (!profile.taken) return [`No sampled profile: ${profile.reason}.`];
  const lines = [
    `Sampled profile of the default path (\`perf record -e cpu-clock -F 4999\` over a child process running the first ${PROFILED_SEARCHES["zerc20-v2"]} v2 and ${PROFILED_SEARCHES["zerc20-v1"]} v1 searches of the fixed sequence on \`${profile.path}\`, Node's start-up included; \`bench/src/poseidon/profileSearch.ts\`):`,
    "",
    ...table(
      ["symbol", "share of samples"],
      profile.symbols.map((entry) => [`\`${entry.symbol}\` (${entry.object})`, percent(entry.share)]),
    ),
    "",
  ];
  if (profile.hot.length > 0) {
    const names = profile.hot[0]?.classes.map((entry) => entry.name) ?? [];
    lines.push(
      "Inside the addon's hot symbols, by instruction class (`perf annotate`; a sample lands on the instruction after the one that stalled, so the split is approximate):",
      "",
      ...table(
        ["symbol", ...names],
        profile.hot.map((entry) => [`\`${entry.symbol}\` (${percent(entry.share)} of samples)`, ...entry.classes.map((share) => percent(share.share))]),
      ),
      "",
    );
  }
  return lines;
}

/** The Markdown lines of section 9. */
export function renderPoseidonSection(results: PoseidonResults): string[] {
  const { paths, sustained } = results;
  const scalar = availablePath(paths, "mulx-adx");
  const scalarUs = scalar?.byVersion["zerc20-v2"].usPerPermutation ?? Number.NaN;
  const lines: string[] = ["## 9. Poseidon: burn addresses per search path", ""];
  lines.push(
    `The native addon's four proof-of-work search paths, each loaded in the bench's own process before the stack starts (\`selectPoseidon("native", { path })\`), beside \`poseidon-lite\`. This process uses \`${paths.implementation}\`${paths.defaultPath === undefined ? "" : ` on \`${paths.defaultPath}\``}, and so does an unconfigured facilitator. ` +
      "Each path runs the first searches of one fixed sequence per version (`bench/src/poseidon/searchSeeds.ts`; every path finds the same nonces, which the bench checks), and its thread's CPU is divided by the permutations hashed, the sum of nonce + 1 (the multi-lane paths also hash up to fifteen past the answer, not counted). " +
      `Times are the thread's own CPU time, so time the scheduler gives other processes does not count, but a busy sibling hyperthread or a lower clock does (the clock is measured below). The number of searches is the power of two that fits ${SEARCH_BUDGET["zerc20-v1"].cpuMs / 1000} s of CPU for v1 (${SEARCH_BUDGET["zerc20-v1"].min}-${SEARCH_BUDGET["zerc20-v1"].max}) and ${SEARCH_BUDGET["zerc20-v2"].cpuMs / 1000} s for v2 (${SEARCH_BUDGET["zerc20-v2"].min}-${SEARCH_BUDGET["zerc20-v2"].max}). ` +
      "A nonce is geometric (v2: mean 65,536, as large a spread), so a few dozen searches average well off the mean: CPU per address is given as *expected* (µs per permutation × 2^bits, what an address costs on average) / *measured* (these searches), with the searches and their mean permutations; the targets use the expected figure. `poseidon-lite` is timed on single hashes and its address cost implied the same way.",
    "",
  );
  const rows = paths.paths.map((cost) => {
    if (!cost.available) return [pathLabel(paths, cost.path), cost.reason, "", "", "", "", ""];
    const v1 = cost.byVersion["zerc20-v1"];
    const v2 = cost.byVersion["zerc20-v2"];
    return [
      pathLabel(paths, cost.path),
      figure(v1.usPerPermutation),
      figure(v2.usPerPermutation),
      times(scalarUs, v2.usPerPermutation),
      addressCell(v1),
      addressCell(v2),
      figure(((sustained.runs[0]?.workers ?? 2) * 1000) / v2.expectedMsPerAddress),
    ];
  });
  const lite = paths.poseidonLiteUsPerHash;
  rows.push([
    "`poseidon-lite` (single hashes)",
    figure(lite["zerc20-v1"]),
    figure(lite["zerc20-v2"]),
    times(scalarUs, lite["zerc20-v2"]),
    `${figure((lite["zerc20-v1"] * 4096) / 1000)} (implied)`,
    `${figure((lite["zerc20-v2"] * 65536) / 1000)} (implied)`,
    figure(((sustained.runs[0]?.workers ?? 2) * 1000) / ((lite["zerc20-v2"] * 65536) / 1000)),
  ]);
  lines.push(
    ...table(
      [
        "path",
        "µs per permutation, width 3 (v1)",
        "µs per permutation, width 4 (v2)",
        "width 4: speed-up over mulx-adx",
        "CPU ms per v1 address: expected / measured (searches, mean permutations)",
        "CPU ms per v2 address: expected / measured (searches, mean permutations)",
        `v2 addresses per second that ${sustained.runs[0]?.workers ?? 2} cores could derive (derivation alone)`,
      ],
      rows,
    ),
    "",
  );

  lines.push(
    `Sustained offers with the stock empty: a facilitator of the run's configuration per version (a stock of ${SUSTAINED_POOL_SIZE}, one worker per core, the default path), answering the stock plus N \`POST /challenge\` at ${SUSTAINED_CONNECTIONS} connections, N sized for about five seconds; the rate is the offers past the stock over the time to the last answer. The v1 row runs on a v1 stack the section starts (${figure(sustained.v1StackSeconds)} s). CPU per offer splits the run's CPU over those offers: the facilitator's burn-address workers, its other threads (HTTP, journal, logging, GC), the load generator (autocannon, in the bench process), every other process on the machine, and what stayed idle or went to the hypervisor (steal). ` +
      "Other paths are compared in process only (the last column above), to keep the run short; a daemon started with `SVC_POSEIDON_PATH` searches on the path it names.",
    "",
  );
  const sustainedRows = sustained.runs.map((run) => {
    const target = run.protocol === "zerc20-v2" ? POSEIDON_TARGETS.v2OffersPerSec.target : POSEIDON_TARGETS.v1OffersPerSec.target;
    return [
      run.protocol,
      pathLabel(paths, run.path),
      String(run.offers),
      `**${figure(run.offersPerSec)}**`,
      `≥ ${target}: ${run.offersPerSec >= target ? "met" : "**missed**"}`,
      `${figure(run.workerCpuMsPerOffer)} / ${figure(run.requestCpuMsPerOffer)} / ${figure(run.loadCpuMsPerOffer)} / ${figure(run.otherCpuMsPerOffer)} / ${figure(run.idleMsPerOffer)} / ${figure(run.stealMsPerOffer)}`,
      `${figure((run.workers * 1000) / offerCpuMs(run))} /s`,
      run.load.non2xx + run.load.errors === 0 ? "0" : `${run.load.non2xx} non-2xx, ${run.load.errors} errors`,
    ];
  });
  for (const skip of sustained.skipped) sustainedRows.push([skip.protocol, "", "", skip.reason, "", "", "", ""]);
  lines.push(
    ...table(
      [
        "version",
        "path",
        "offers past the stock",
        "offers/s",
        "target",
        "CPU ms per offer: workers / request path / load generator / other processes / idle / steal",
        "ceiling: cores ÷ (workers + request path + load generator) per offer",
        "failed",
      ],
      sustainedRows,
    ),
    "",
  );

  lines.push("### Where a search's time goes", "");
  lines.push(...profileLines(paths));
  lines.push(...ifmaArithmetic(paths), "");
  return lines;
}

/** One paragraph per missed target of section 9 (for the report's missed-targets list). */
export function poseidonMissedNotes(results: PoseidonResults): string[] {
  const { paths, sustained } = results;
  const verdicts = poseidonVerdicts(results);
  const missed = (index: number) => verdicts[index]?.met === false;
  const chosen = availablePath(paths, paths.defaultPath);
  const notes: string[] = [];
  if (chosen === undefined) return notes;
  const v2 = chosen.byVersion["zerc20-v2"];
  const v1 = chosen.byVersion["zerc20-v1"];
  const peak = paths.ifmaPeak;
  const hot = paths.profile.taken ? paths.profile.hot.find((entry) => entry.symbol.endsWith("4")) : undefined;
  const multiplierShare = hot?.classes.find((entry) => entry.name.startsWith("IFMA"))?.share;
  const profileClause =
    hot === undefined
      ? ""
      : `The profile (section 9) puts ${percent(hot.share)} of the samples in \`${hot.symbol}\`, and ${percent(multiplierShare ?? Number.NaN)} of those on the IFMA multiplies themselves. `;
  const ceilingClause = (us: number, width: 3 | 4) => {
    if (chosen.path !== "avx512-ifma" || !peak.measured) return "";
    const step = ifmaInstructionsPerStep(width);
    const rate = step.total / (us * IFMA_LANES * 1000);
    return `At ${figure(us)} µs per permutation the search retires ${figure(rate)} IFMA instructions per ns, ${percent(rate / peak.ifmaPerNs)} of this core's measured ceiling (${figure(peak.ifmaPerNs)} per ns at ${figure(peak.clockGhz)} GHz); ${figure(step.total / IFMA_LANES)} of them per permutation put the floor at ${figure(step.total / IFMA_LANES / peak.ifmaPerNs / 1000)} µs. `;
  };
  const round = ifmaPartialRound(4);
  const step = ifmaInstructionsPerStep(4);
  const closeIt = `What would close it: fewer IFMA instructions per permutation, since the floor above is set by their count and not by scheduling. ${percent(step.partialRounds / step.total)} of them are in the partial rounds, and ${figure(round.reductions)} of a partial round's ${figure(round.total)} are Montgomery reductions (seven, each as dear as a product: three in the S-box, one per element after the sparse matrix), so fewer or cheaper reductions are where the count can fall; the rest of the gap to the ceiling is scheduling (the moves and carries between the products).`;
  if (missed(0)) {
    notes.push(
      `- **Width-4 permutation.** ${figure(v2.usPerPermutation)} µs on ${chosen.path} against ${POSEIDON_TARGETS.width4Us.target} µs. ${ceilingClause(v2.usPerPermutation, 4)}${profileClause}${closeIt}`,
    );
  }
  if (missed(1)) {
    const needed = (POSEIDON_TARGETS.v2AddressMs.target * 1000) / 2 ** 16;
    notes.push(
      `- **CPU per v2 address.** ${figure(v2.usPerPermutation)} µs per permutation × 65,536 permutations on average = ${figure(v2.expectedMsPerAddress)} ms against ${POSEIDON_TARGETS.v2AddressMs.target} ms, which needs ${figure(needed)} µs per permutation (the measured mean over these ${v2.searches} searches, ${figure(v2.measuredMsPerAddress)} ms, follows their ${figure(v2.meanPermutations)} permutations on average). ` +
        (missed(0)
          ? "Why, and what would close it: the permutation's cost, previous note."
          : `${ceilingClause(v2.usPerPermutation, 4)}${profileClause}${closeIt}`),
    );
  }
  const sustainedNote = (label: string, run: SustainedRun | undefined, target: number) => {
    if (run === undefined) return;
    const perOffer = offerCpuMs(run);
    const ceiling = (run.workers * 1000) / perOffer;
    const derivationOnly = (run.workers * 1000) / run.workerCpuMsPerOffer;
    const share = (ms: number) => percent(ms / perOffer);
    const cores = (ms: number) => (ms * run.offersPerSec) / 1000;
    notes.push(
      `- **${label}.** ${figure(run.offersPerSec)} offers/s on ${run.path} against ${target}/s. Each offer cost ${figure(perOffer)} ms of CPU: ${figure(run.workerCpuMsPerOffer)} ms of derivation on the workers (${share(run.workerCpuMsPerOffer)}), ${figure(run.requestCpuMsPerOffer)} ms on the facilitator's other threads (HTTP, the fsynced journal record, logging, GC; ${share(run.requestCpuMsPerOffer)}) and ${figure(run.loadCpuMsPerOffer)} ms in the load generator (${share(run.loadCpuMsPerOffer)}), so ${run.workers} cores hold at most ${figure(ceiling)} offers/s (${figure(derivationOnly)}/s if derivation had them alone). ` +
        `Other processes took ${figure(run.otherCpuMsPerOffer)} ms per offer (${figure(cores(run.otherCpuMsPerOffer))} cores over the run)${cores(run.otherCpuMsPerOffer) >= 0.25 ? ", CPU the facilitator did not get: the machine was shared, and its workers run at a lowered priority, so this rate understates what the cores give it alone" : ""}; ${figure(run.idleMsPerOffer)} ms stayed idle and ${figure(run.stealMsPerOffer)} ms went to the hypervisor. ` +
        (derivationOnly < target
          ? "Derivation alone cannot reach the target on these cores: the CPU per address must fall first (the permutation's arithmetic and profile, section 9)."
          : ceiling >= target
            ? `With the cores to itself the facilitator's own cost per offer allows ${figure(ceiling)}/s, above the target: this run missed it because other processes held ${figure(cores(run.otherCpuMsPerOffer))} cores. What would close it: the same run on a machine nothing else is using.`
            : "Derivation alone would reach it; the request path and the load generator on the same cores take the rest. What would close it: a cheaper request path (one fsync for several offers under load, a lighter log line) and a load generator on another host."),
    );
  };
  if (missed(2)) sustainedNote("Sustained v2 offers", sustainedRun(sustained, "zerc20-v2"), POSEIDON_TARGETS.v2OffersPerSec.target);
  if (missed(3)) {
    notes.push(
      `- **CPU per v1 address.** ${figure(v1.usPerPermutation)} µs per permutation × 4,096 = ${figure(v1.expectedMsPerAddress)} ms against ${POSEIDON_TARGETS.v1AddressMs.target} ms. ${ceilingClause(v1.usPerPermutation, 3)}` +
        (missed(0) || missed(1) ? "What would close it: as for the width-4 permutation above (the same rounds, one element fewer)." : closeIt),
    );
  }
  if (missed(4)) sustainedNote("Sustained v1 offers", sustainedRun(sustained, "zerc20-v1"), POSEIDON_TARGETS.v1OffersPerSec.target);
  return notes;
}
