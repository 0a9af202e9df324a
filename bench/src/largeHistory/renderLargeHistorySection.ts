/**
 * The report's section 12: startup with a large payment history (spawn → `/readyz` 200 with an empty history
 * file and with a million records, split at the history's opening and at `started`), the background fold that
 * follows, its row of the Targets table and its note when the target is missed.
 */
import { formatFigure } from "../harness/formatFigure.js";
import type { HistoryStartup, LargeHistoryStartupResult } from "../measurements/largeHistoryStartup.js";
import { READY_POLL_MS } from "../measurements/largeHistoryStartup.js";

const figure = formatFigure;

/** The record count the target is stated for. */
export const TARGET_RECORDS = 1_000_000;

/** `1,000,000`. */
function count(value: number): string {
  return Number.isFinite(value) ? value.toLocaleString("en-US") : "n/a";
}

function seconds(ms: number): string {
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : "n/a";
}

function mib(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : "n/a";
}

function ratio(a: number, b: number): string {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}x` : "n/a";
}

/** `stock ×12, indexer ×1`, or `none`. */
function failing(notReady: HistoryStartup["notReady"]): string {
  const entries = Object.entries(notReady).sort((a, b) => b[1] - a[1]);
  return entries.length === 0 ? "none" : entries.map(([component, times]) => `${component} ×${times}`).join(", ");
}

/** One start split at the daemon's log lines (its own timestamps, from the spawn), ms; the parts add up to the startup. */
type Phases = {
  /** Spawn → the history file opened: Node, the configuration, the chain reads. */
  toOpen: number;
  /** → `journal_restored`: the fold when the file is small, the journal. */
  toJournal: number;
  /** → `burn_address_stock_restored`: the burn-address stock file. */
  toStock: number;
  /** → `started`: the first burn address derived on the worker, listening. */
  toStarted: number;
  /** → the first `/readyz` 200 (the bench's clock). */
  toReady: number;
};

function phases(startup: HistoryStartup): Phases {
  const at = (event: string) => startup.events[event] ?? Number.NaN;
  return {
    toOpen: startup.historyOpenedMs,
    toJournal: at("journal_restored") - startup.historyOpenedMs,
    toStock: at("burn_address_stock_restored") - at("journal_restored"),
    toStarted: at("started") - at("burn_address_stock_restored"),
    toReady: startup.readyMs - at("started"),
  };
}

/** Short names of the phases, for the prose. */
const PHASE_NAMES: Record<keyof Phases, string> = {
  toOpen: "reaching the history",
  toJournal: "the journal (and a small history's fold)",
  toStock: "the stock file",
  toStarted: "the first burn address and listening",
  toReady: "the readiness probe",
};

/** The rows of the phases, ms: label, empty start, large start. */
function phaseRows(empty: Phases, large: Phases): string[][] {
  const labels: Record<keyof Phases, string> = {
    toOpen: "spawn → history file opened (`history_enabled`): Node, configuration, chain reads",
    toJournal: "→ `journal_restored`: the journal (and the fold of a history up to 8 MiB)",
    toStock: "→ `burn_address_stock_restored`: the burn-address stock file",
    toStarted: "→ `started`: the first burn address derived on the worker, listening",
    toReady: "→ first `/readyz` 200",
  };
  return (Object.keys(labels) as (keyof Phases)[]).map((key) => [`${labels[key]}, ms`, figure(empty[key]), figure(large[key])]);
}

/** Below this much extra time a phase of the large start is taken as unaffected, ms. */
const UNAFFECTED_MS = 250;

/** `the stock file +1013 ms, the readiness probe +812 ms` for the phases after the history's opening that grew. */
function grownAfterOpening(empty: Phases, large: Phases): string | undefined {
  const grown = (Object.keys(PHASE_NAMES) as (keyof Phases)[])
    .filter((key) => key !== "toOpen" && large[key] - empty[key] > UNAFFECTED_MS)
    .map((key) => `${PHASE_NAMES[key]} +${figure(large[key] - empty[key])} ms`);
  return grown.length === 0 ? undefined : grown.join(", ");
}

/** Whether the large start met the target; undefined when the run had fewer records than the target names. */
export function largeHistoryTargetMet(result: LargeHistoryStartupResult): boolean | undefined {
  if (result.records < TARGET_RECORDS) return undefined;
  return result.large.readyMs <= result.targetMs;
}

/** Section 12's row of the Targets table. */
export function largeHistoryVerdict(result: LargeHistoryStartupResult): { target: string; measured: string; met: boolean | undefined } {
  const fewer = result.records < TARGET_RECORDS ? ` with ${count(result.records)} records` : "";
  return {
    target: `startup (spawn → \`/readyz\` 200) ≤ ${seconds(result.targetMs)} with ${count(TARGET_RECORDS)} history records`,
    measured: `${seconds(result.large.readyMs)}${fewer} (empty history: ${seconds(result.empty.readyMs)}); history fold ${seconds(result.large.loadMs)} (section 12)`,
    met: largeHistoryTargetMet(result),
  };
}

/** Why the fold slows the phases after the history's opening. */
function why(large: HistoryStartup): string {
  if (!large.foldedInBackground)
    return `The file was small enough to be folded before startup went on (${figure(large.loadMs)} ms), so the startup waited for all of it.`;
  return "The fold starts once the daemon listens and runs on its main thread 256 KiB of the file at a time (`facilitator/src/journal/jsonlFile.ts`), so the readiness probe's own steps queue behind the chunk in progress, and the fold's garbage collection shares the cores with everything else.";
}

/** The Missed targets paragraph of section 12 (call it when the target was missed). */
export function largeHistoryMissedNote(result: LargeHistoryStartupResult): string {
  const empty = phases(result.empty);
  const large = phases(result.large);
  const grown = grownAfterOpening(empty, large);
  return (
    `- **Startup with a large history.** ${seconds(result.large.readyMs)} with ${count(result.records)} records against ${seconds(result.targetMs)}; ${seconds(result.empty.readyMs)} with an empty history, which spends ${seconds(empty.toOpen)} before it opens the history (Node, the configuration, the chain reads). ` +
    (grown === undefined
      ? "After the opening the large start kept pace with the empty one: what is missing is in the startup before the history. "
      : `After the opening the large start took longer than the empty one on ${grown} (section 12). ${why(result.large)} `) +
    "What would close it: folding off the main thread so the readiness probe does not queue behind it, and a shorter path to the history's opening."
  );
}

/** The Markdown lines of section 12. */
export function renderLargeHistorySection(result: LargeHistoryStartupResult): string[] {
  const { empty, large } = result;
  const met = largeHistoryTargetMet(result);
  const verdict =
    met === undefined
      ? `not measured: ${count(result.records)} records, the target is for ${count(TARGET_RECORDS)}`
      : `${met ? "met" : "**not met**"} (${seconds(large.readyMs)})`;
  const records = (startup: HistoryStartup) =>
    startup.recordsLoaded === startup.fileRecords ? count(startup.recordsLoaded) : `**${count(startup.recordsLoaded)} of ${count(startup.fileRecords)}**`;
  const emptyPhases = phases(empty);
  const largePhases = phases(large);
  const rows: string[][] = [
    ...phaseRows(emptyPhases, largePhases),
    ["**startup: spawn → first `/readyz` 200, ms**", `**${figure(empty.readyMs)}**`, `**${figure(large.readyMs)}**`],
    ["startup, large / empty", "", ratio(large.readyMs, empty.readyMs)],
    [`target: startup ≤ ${seconds(result.targetMs)} with ${count(TARGET_RECORDS)} records`, "", verdict],
    ["`/readyz` 503 answers before the first 200, by failing component", failing(empty.notReady), failing(large.notReady)],
    ["startup went on before the fold ended (`history_loading` logged)", empty.foldedInBackground ? "yes" : "no", large.foldedInBackground ? "yes" : "no"],
    ["history fold, from opening the file (`history_loaded` ms)", figure(empty.loadMs), figure(large.loadMs)],
    ["records folded (`history_loaded` records)", records(empty), records(large)],
    ["RSS right after `history_loaded`", mib(empty.rssAfterLoadBytes), mib(large.rssAfterLoadBytes)],
  ];
  const grown = grownAfterOpening(emptyPhases, largePhases);
  const explanation =
    grown === undefined
      ? "After the history's opening no phase of the large start took more than 250 ms longer than the empty one's."
      : `After the history's opening the large start took longer than the empty one on ${grown}. ${why(large)}`;
  return [
    "## 12. Startup with a large history",
    "",
    `The built facilitator started twice on this run's stack, each time with a fresh journal and a stock of ${result.poolSize} burn addresses on ${result.workers} worker thread${result.workers === 1 ? "" : "s"} (readiness needs one in stock, so both starts include deriving it): once with an empty payment history file (\`PAYMENT_HISTORY_PATH\`), once with ${count(result.records)} synthetic records (${mib(result.fileBytes)}, three lines per payment: intent, accepted, finalized; written in ${seconds(result.writeMs)} just before, so read from the page cache). ` +
      `Startup is the wall time from spawning the process to the first 200 of \`GET /readyz\`, polled every ${READY_POLL_MS} ms, split below at the daemon's log lines by their own timestamps. A history file up to 8 MiB is folded before startup goes on; a larger one is folded once the daemon listens (\`history_loading\` at opening; history reads and writes wait for the fold); \`history_loaded\` gives the records folded and the fold's time.`,
    "",
    `| what | empty history | ${count(result.records)} records |`,
    "| --- | --- | --- |",
    ...rows.map((row) => `| ${row.join(" | ")} |`),
    "",
    `${explanation} Section time: ${figure(result.durationSeconds)} s.`,
    "",
  ];
}
