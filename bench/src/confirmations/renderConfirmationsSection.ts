/**
 * The report's section 11: settle latency at 1 and 2 confirmations beside the official exact scheme, on a
 * chain that mines on an interval, and its informative row in the Targets table (no numeric target: it
 * documents what each confirmation costs a paid request).
 */
import { formatFigure } from "../harness/formatFigure.js";
import type { Summary } from "../harness/stats.js";
import type { ConfirmationLatencyResult } from "../measurements/confirmationLatency.js";

const figure = formatFigure;

/** `median (min–max)`, the spread of a handful of runs (`min to max` when a difference goes below zero, which a dash would garble). */
function medianRange(summary: Summary | undefined): string {
  if (summary === undefined || summary.n === 0) return "n/a";
  return `${figure(summary.median)} (${figure(summary.min)}${summary.min < 0 ? " to " : "–"}${figure(summary.max)})`;
}

/** The ratio of two medians, `1.02x`. */
function ratio(a: Summary | undefined, b: Summary): string {
  const value = (a?.median ?? Number.NaN) / b.median;
  return Number.isFinite(value) ? `${value.toFixed(2)}x` : "n/a";
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** Section 11's row of the Targets table: informative, no verdict. */
export function confirmationsTargetRow(result: ConfirmationLatencyResult): { target: string; measured: string } {
  const depths = result.ours
    .map((depth) => `ours at ${depth.confirmations}: ${figure(depth.permitSettleMs.median)} ms = ${ratio(depth.permitSettleMs, result.exactSettleMs)}`)
    .join("; ");
  return {
    target: `permit settle at 1 and 2 confirmations beside exact (informative, no target; ${result.blockTimeSeconds} s blocks)`,
    measured: `exact ${figure(result.exactSettleMs.median)} ms; ${depths} of exact (section 11)`,
  };
}

/** The Markdown lines of section 11. */
export function renderConfirmationsSection(result: ConfirmationLatencyResult): string[] {
  const blockMs = result.blockTimeSeconds * 1000;
  const rows: string[][] = [
    ["exact (EIP-3009)", "`/settle`: the transfer and its receipt", medianRange(result.exactSettleMs), "1.00x", ""],
    ...result.ours.map((depth) => [
      `ours, permit, ${plural(depth.confirmations, "confirmation")}`,
      `\`/settle\`: the relay and its receipt${depth.confirmations > 1 ? `, then ${plural(depth.confirmations - 1, "more block")}` : ""}`,
      `**${medianRange(depth.permitSettleMs)}**`,
      `**${ratio(depth.permitSettleMs, result.exactSettleMs)}**`,
      medianRange(depth.permitOverExactMs),
    ]),
    ...result.ours.map((depth) => [
      `ours, self-transfer, ${plural(depth.confirmations, "confirmation")}`,
      `the payer's 402, burn and its receipt, then \`/settle\` (\`/settle\` alone: ${medianRange(depth.selfTransferSettleMs)})`,
      medianRange(depth.selfTransferMs),
      ratio(depth.selfTransferMs, result.exactSettleMs),
      "",
    ]),
  ];
  const extra = result.perExtraConfirmationMs;
  const failures = result.failures.length === 0 ? [] : ["", `Failures: ${result.failures.join("; ")}.`];
  return [
    "## 11. Settle latency under confirmations",
    "",
    `\`[network] confirmations\` makes our \`/settle\` answer accepted only once the burn is that many blocks deep. On the automine anvil of the other sections a second block never comes by itself, so this section runs on a stack of its own whose anvil mines a block every **${result.blockTimeSeconds} s** (\`evm_setIntervalMining\` after the deployment; intervals seen by the bench: ${medianRange(result.observedBlockIntervalMs)} ms). ` +
      `On it the official exact facilitator (its settle waits for the transfer's receipt: one block) and two of ours, \`network.confirmations\` ${result.ours.map((depth) => depth.confirmations).join(" and ")} (\`settlement.permit_receipt_timeout_ms\` ${result.permitReceiptTimeoutMs}, so no settle answers \`pending_burn\`), ${result.runs} settles per row, one at a time, rounds rotating the order. ` +
      "Each timed start lies at a set phase of the block interval, the same for every row of a round and spread evenly over the interval across rounds (`bench/src/confirmations/blockClock.ts`): back-to-back settles would otherwise all start just after a block and wait almost a whole one. Figures are **median (min–max)** in ms; ratios divide medians of this run. The permit row is the one comparable to exact (the payment is signed beforehand, the facilitator's transaction and wait are timed); a self-transfer payer waits for its own burn's first block before it calls.",
    "",
    "| row | what is timed | ms: median (min–max) | / exact | minus exact of the same round, ms |",
    "| --- | --- | --- | --- | --- |",
    ...rows.map((row) => `| ${row.join(" | ")} |`),
    ...failures,
    "",
    `At one confirmation ours waits for the same block exact does; what separates the two in a round is the work our settle does around the wait (section 2 lists its RPC round trips), and where each transaction falls against the next block. Each confirmation past the first added ${medianRange(extra)} ms to the permit settle, round by round, against a block time of ${figure(blockMs)} ms: one block, plus up to the facilitator's head polling while it waits for depth (every 250 ms). ` +
      "The cost scales with the chain's block time, not with anything the facilitator does: a second confirmation adds about 12 s to every paid request on Ethereum, 2 s on Base and 0.25 s on Arbitrum. What it buys is that a reorg shallower than the confirmations never takes back a burn the provider already served against (`facilitator/README.md`, Confirmations and reorgs). " +
      `Section time: ${figure(result.durationSeconds)} s.`,
    "",
  ];
}
