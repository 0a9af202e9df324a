import { describe, expect, it } from "vitest";
import type { HistoryStartup, LargeHistoryStartupResult } from "../measurements/largeHistoryStartup.js";
import { largeHistoryMissedNote, largeHistoryVerdict, renderLargeHistorySection } from "./renderLargeHistorySection.js";

const empty: HistoryStartup = {
  fileRecords: 0,
  historyOpenedMs: 1850,
  startedMs: 2236.4,
  readyMs: 2260,
  notReady: {},
  foldedInBackground: false,
  recordsLoaded: 0,
  loadMs: 0,
  loadedAtMs: 2261,
  rssAfterLoadBytes: 170 * 2 ** 20,
  events: { history_loaded: 1850, journal_restored: 1852, burn_address_stock_restored: 1870, started: 2235 },
};

const large: HistoryStartup = {
  fileRecords: 1_000_000,
  historyOpenedMs: 1689,
  startedMs: 5677.3,
  readyMs: 6614,
  notReady: { indexer: 1, stock: 3 },
  foldedInBackground: true,
  recordsLoaded: 1_000_000,
  loadMs: 14_137,
  loadedAtMs: 15_900,
  rssAfterLoadBytes: 900 * 2 ** 20,
  events: { history_loading: 2846, journal_restored: 3359, burn_address_stock_restored: 4400, started: 5676, history_loaded: 15_826 },
};

const result: LargeHistoryStartupResult = {
  records: 1_000_000,
  fileBytes: 362_166_950,
  writeMs: 6112.6,
  empty,
  large,
  targetMs: 3000,
  poolSize: 2,
  workers: 1,
  durationSeconds: 25.1,
};

describe("renderLargeHistorySection", () => {
  it("prints both starts split at the daemon's log lines, their ratio, the verdict, the fold and the RSS", () => {
    const text = renderLargeHistorySection(result).join("\n");
    expect(text).toContain("## 12. Startup with a large history");
    expect(text).toContain("| what | empty history | 1,000,000 records |");
    expect(text).toContain("| spawn → history file opened (`history_enabled`): Node, configuration, chain reads, ms | 1850 | 1689 |");
    expect(text).toContain("| → `journal_restored`: the journal (and the fold of a history up to 8 MiB), ms | 2 | 1670 |");
    expect(text).toContain("| → `burn_address_stock_restored`: the burn-address stock file, ms | 18 | 1041 |");
    expect(text).toContain("| → `started`: the first burn address derived on the worker, listening, ms | 365 | 1276 |");
    expect(text).toContain("| → first `/readyz` 200, ms | 25 | 938 |");
    expect(text).toContain("| **startup: spawn → first `/readyz` 200, ms** | **2260** | **6614** |");
    expect(text).toContain("| startup, large / empty |  | 2.93x |");
    expect(text).toContain("| target: startup ≤ 3.00 s with 1,000,000 records |  | **not met** (6.61 s) |");
    expect(text).toContain("by failing component | none | stock ×3, indexer ×1 |");
    expect(text).toContain("(`history_loading` logged) | no | yes |");
    expect(text).toContain("| history fold, from opening the file (`history_loaded` ms) | 0 | 14137 |");
    expect(text).toContain("| records folded (`history_loaded` records) | 0 | 1,000,000 |");
    expect(text).toContain("| RSS right after `history_loaded` | 170.0 MiB | 900.0 MiB |");
    expect(text).toContain("1,000,000 synthetic records (345.4 MiB");
    expect(text).toContain(
      "took longer than the empty one on the journal (and a small history's fold) +1668 ms, the stock file +1023 ms, the first burn address and listening +911 ms, the readiness probe +913 ms.",
    );
    expect(text).toContain("queue behind the chunk in progress");
  });

  it("says met when the large start is within the target, and flags a fold that read fewer records than the file holds", () => {
    const text = renderLargeHistorySection({ ...result, large: { ...large, readyMs: 2500, recordsLoaded: 999_000 } }).join("\n");
    expect(text).toContain("| target: startup ≤ 3.00 s with 1,000,000 records |  | met (2.50 s) |");
    expect(text).toContain("| records folded (`history_loaded` records) | 0 | **999,000 of 1,000,000** |");
  });

  it("says the startup waited for the whole fold when it ended within the daemon's wait", () => {
    const events = { history_loaded: 2560, journal_restored: 2565, burn_address_stock_restored: 2580, started: 2950 };
    const inTime = { ...large, foldedInBackground: false, loadMs: 871, events, startedMs: 2951, readyMs: 2990 };
    const text = renderLargeHistorySection({ ...result, large: inTime }).join("\n");
    expect(text).toContain(
      "the journal (and a small history's fold) +874 ms. The file was small enough to be folded before startup went on (871 ms), so the startup waited for all of it.",
    );
    expect(text).not.toContain("queue behind the chunk in progress");
  });

  it("gives no verdict on a run with fewer records than the target names", () => {
    const fewer = { ...result, records: 300_000, large: { ...large, fileRecords: 300_000, recordsLoaded: 300_000, readyMs: 2000 } };
    expect(renderLargeHistorySection(fewer).join("\n")).toContain("| not measured: 300,000 records, the target is for 1,000,000 |");
    expect(largeHistoryVerdict(fewer).met).toBeUndefined();
    expect(largeHistoryVerdict(fewer).measured).toContain("2.00 s with 300,000 records");
  });

  it("does not blame the fold when every phase after the history's opening kept pace with the empty start", () => {
    const events = { history_loading: 2689, journal_restored: 1689 + 100, burn_address_stock_restored: 1689 + 300, started: 1689 + 800 };
    const text = renderLargeHistorySection({ ...result, large: { ...large, events, startedMs: 2490, readyMs: 2600 } }).join("\n");
    expect(text).toContain("After the history's opening no phase of the large start took more than 250 ms longer than the empty one's.");
    expect(text).not.toContain("queue behind the chunk in progress");
    const later = { history_loading: 3500, journal_restored: 2600, burn_address_stock_restored: 2800, started: 3300 };
    const slowBeforeOpening = { ...result, large: { ...large, historyOpenedMs: 2500, events: later, startedMs: 3301, readyMs: 3330 } };
    expect(largeHistoryMissedNote(slowBeforeOpening)).toContain("what is missing is in the startup before the history");
  });
});

describe("largeHistoryVerdict and largeHistoryMissedNote", () => {
  it("puts the large startup against the target and names the phases that grew", () => {
    expect(largeHistoryVerdict(result)).toEqual({
      target: "startup (spawn → `/readyz` 200) ≤ 3.00 s with 1,000,000 history records",
      measured: "6.61 s (empty history: 2.26 s); history fold 14.14 s (section 12)",
      met: false,
    });
    const note = largeHistoryMissedNote(result);
    expect(note).toContain("6.61 s with 1,000,000 records against 3.00 s; 2.26 s with an empty history, which spends 1.85 s before it opens the history");
    expect(note).toContain("took longer than the empty one on the journal (and a small history's fold) +1668 ms, the stock file +1023 ms");
    expect(note).toContain("What would close it:");
  });
});
