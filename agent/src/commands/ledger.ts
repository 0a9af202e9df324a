import { Ledger } from "../ledger/ledger.js";
import { remainingUnder } from "../ledger/remainingUnder.js";
import { summarizeSpend } from "../ledger/summarizeSpend.js";
import { type AmountFormat, readAmountFormats } from "../payment/amountFormat.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { EXIT_OK } from "./exitCodes.js";
import { writeJsonLine, writeLine } from "./writeLine.js";
import type { LedgerCommand } from "./ledgerCommand.js";

/** Runs `LedgerCommand` as parsed into `command`; returns the exit code. */
export async function runLedger(command: LedgerCommand): Promise<number> {
  const { stdout, env } = command.context;
  const policy = loadPolicy(env);
  const entries = await new Ledger(policy.stateDir).entries();
  const cap = policy.maxTotal;
  const summaries = summarizeSpend(entries).map((summary) => ({
    ...summary,
    cap: cap ?? null,
    remaining: cap === undefined ? null : remainingUnder(cap, summary.total).toString(),
  }));
  if (command.json) {
    for (const summary of summaries) writeJsonLine(stdout, { type: "spend", ...summary });
    if (command.showEntries) {
      // Neither the signed payment nor the request's headers (they may carry the caller's credentials) are printed.
      for (const { paymentHeader: _sent, request, ...entry } of entries) {
        writeJsonLine(stdout, {
          type: "payment",
          ...entry,
          amount: entry.amount.toString(),
          ...(request === undefined ? {} : { request: { method: request.method, body: request.body !== undefined } }),
        });
      }
    }
    return EXIT_OK;
  }
  const assets = [...summaries.map((summary) => summary.asset), ...(command.showEntries ? entries.map((entry) => entry.asset) : [])];
  const formatFor = await readAmountFormats(policy, assets, { baseUnits: command.baseUnits });
  // Caps are per network and token, so they read in the units of the one token spent when there is one.
  const capFormat = formatFor(summaries.length === 1 ? (summaries[0]?.asset ?? "") : (policy.allowedToken ?? ""));
  writeLine(stdout, `state folder ${policy.stateDir}`);
  writeLine(
    stdout,
    `caps: SVC_MAX_PER_PAYMENT ${optionalAmount(policy.maxPerPayment, capFormat)}, SVC_MAX_TOTAL ${optionalAmount(cap, capFormat)} (per network and token), SVC_APPROVE_ABOVE ${optionalAmount(policy.approveAbove, capFormat)}`,
  );
  if (summaries.length === 0) writeLine(stdout, "no spend yet");
  for (const summary of summaries) {
    const format = formatFor(summary.asset);
    writeLine(
      stdout,
      `${summary.network} ${summary.asset}: total ${format(summary.total)}${cap === undefined ? "" : ` of ${format(cap)}, remaining ${format(summary.remaining ?? "0")}`} (settled ${format(summary.settled)}, pending ${format(summary.pending)}, failed after burn ${format(summary.failed)})`,
    );
  }
  if (command.showEntries) {
    for (const entry of entries) {
      writeLine(
        stdout,
        `${entry.id}  ${entry.status.padEnd(8)}  ${formatFor(entry.asset)(entry.amount).padStart(24)}  ${entry.mode.padEnd(13)}  ${entry.createdAt}  ${entry.url}${entry.message === undefined ? "" : `  ${entry.message}`}`,
      );
    }
  }
  return EXIT_OK;
}

function optionalAmount(value: string | undefined, format: AmountFormat): string {
  return value === undefined ? "unset" : format(value);
}
