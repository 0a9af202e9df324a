import { describe, expect, it } from "vitest";
import { BenchError } from "./benchError.js";
import { DEFAULT_BENCH_CONFIG, loadBenchConfig } from "./benchConfig.js";

describe("loadBenchConfig", () => {
  it("starts section 12 with a million history records unless BENCH_HISTORY_RECORDS says otherwise", () => {
    expect(loadBenchConfig({}).historyRecords).toBe(1_000_000);
    expect(loadBenchConfig({ BENCH_HISTORY_RECORDS: "" }).historyRecords).toBe(1_000_000);
    expect(loadBenchConfig({ BENCH_HISTORY_RECORDS: "30000" })).toEqual({ ...DEFAULT_BENCH_CONFIG, historyRecords: 30_000 });
  });

  it("refuses a count that is not a non-negative integer, naming the variable", () => {
    for (const raw of ["-3", "2.5", "many"]) {
      expect(() => loadBenchConfig({ BENCH_HISTORY_RECORDS: raw })).toThrow(BenchError);
      expect(() => loadBenchConfig({ BENCH_HISTORY_RECORDS: raw })).toThrow("BENCH_HISTORY_RECORDS must be a non-negative integer");
    }
  });
});
