import { describe, expect, it } from "vitest";
import { summarize } from "../harness/stats.js";
import type { ConfirmationLatencyResult } from "../measurements/confirmationLatency.js";
import { confirmationsTargetRow, renderConfirmationsSection } from "./renderConfirmationsSection.js";

const result: ConfirmationLatencyResult = {
  blockTimeSeconds: 1,
  observedBlockIntervalMs: summarize([990, 1000, 1010]),
  runs: 3,
  exactSettleMs: summarize([300, 600, 900]),
  ours: [
    {
      confirmations: 1,
      permitSettleMs: summarize([320, 630, 950]),
      selfTransferMs: summarize([400, 700, 1000]),
      selfTransferSettleMs: summarize([12, 20, 30]),
      permitOverExactMs: summarize([20, 30, 50]),
    },
    {
      confirmations: 2,
      permitSettleMs: summarize([1300, 1650, 1900]),
      selfTransferMs: summarize([1400, 1700, 2000]),
      selfTransferSettleMs: summarize([900, 1000, 1100]),
      permitOverExactMs: summarize([1000, 1050, 1000]),
    },
  ],
  perExtraConfirmationMs: summarize([980, 1020, 950]),
  permitReceiptTimeoutMs: 30_000,
  durationSeconds: 92.4,
  failures: [],
};

describe("renderConfirmationsSection", () => {
  it("prints each depth's median and range beside exact, the ratios of medians and the block time", () => {
    const text = renderConfirmationsSection(result).join("\n");
    expect(text).toContain("## 11. Settle latency under confirmations");
    expect(text).toContain("a block every **1 s**");
    expect(text).toContain("| exact (EIP-3009) | `/settle`: the transfer and its receipt | 600 (300–900) | 1.00x |  |");
    expect(text).toContain("| ours, permit, 1 confirmation | `/settle`: the relay and its receipt | **630 (320–950)** | **1.05x** | 30 (20–50) |");
    expect(text).toContain("| ours, permit, 2 confirmations | `/settle`: the relay and its receipt, then 1 more block | **1650 (1300–1900)** | **2.75x** |");
    expect(text).toContain("(`/settle` alone: 1000 (900–1100)) | 1700 (1400–2000) | 2.83x |");
    expect(text).toContain("added 980 (950–1020) ms to the permit settle, round by round, against a block time of 1000 ms");
    expect(text).not.toContain("Failures");
  });

  it("writes a range that goes below zero with words, not a dash", () => {
    const [first, second] = result.ours;
    if (first === undefined || second === undefined) throw new Error("the fixture has two depths");
    const text = renderConfirmationsSection({ ...result, ours: [{ ...first, permitOverExactMs: summarize([-64.3, 21.6, 133]) }, second] }).join("\n");
    expect(text).toContain("| 21.6 (-64.3 to 133) |");
  });

  it("lists failures and gives the informative Targets row", () => {
    expect(renderConfirmationsSection({ ...result, failures: ["exact: HTTP 500 {}"] }).join("\n")).toContain("Failures: exact: HTTP 500 {}.");
    expect(confirmationsTargetRow(result)).toEqual({
      target: "permit settle at 1 and 2 confirmations beside exact (informative, no target; 1 s blocks)",
      measured: "exact 600 ms; ours at 1: 630 ms = 1.05x; ours at 2: 1650 ms = 2.75x of exact (section 11)",
    });
  });
});
