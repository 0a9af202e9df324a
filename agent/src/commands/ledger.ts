import { Ledger } from "../ledger/ledger.js";
import { remainingUnder } from "../ledger/remainingUnder.js";
import { summarizeSpend } from "../ledger/summarizeSpend.js";
import { amountFormat, readTokens } from "../payment/amountFormat.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { describeSpendAmount, type SpendAmount } from "../policy/spendAmount.js";
import { limitsForToken } from "../policy/tokenLimits.js";
import { EXIT_OK } from "./exitCodes.js";
import { writeJsonLine, writeLine } from "./writeLine.js";
import type { LedgerCommand } from "./ledgerCommand.js";

/** Runs `LedgerCommand` as parsed into `command`; returns the exit code. */
export async function runLedger(command: LedgerCommand): Promise<number> {
  const { stdout, env } = command.context;
  const policy = loadPolicy(env);
  const entries = await new Ledger(policy.stateDir).entries();
  const spend = summarizeSpend(entries);
  const assets = [...spend.map((summary) => summary.asset), ...(command.showEntries ? entries.map((entry) => entry.asset) : [])];
  const tokenFor = await readTokens(policy, [...assets, ...(policy.allowedToken === undefined ? [] : [policy.allowedToken])]);
  // The total cap in each token's base units; null when it is in token units and the token's decimals could not be read.
  const summaries = spend.map((summary) => {
    const cap = policy.maxTotal === undefined ? undefined : limitsForToken(policy, tokenFor(summary.asset)?.decimals)?.maxTotal;
    return { ...summary, cap: cap?.toString() ?? null, remaining: cap === undefined ? null : remainingUnder(cap, summary.total).toString() };
  });
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
  const formatFor = (asset: string) => amountFormat(tokenFor(asset), { baseUnits: command.baseUnits });
  // Caps are per network and token, so they read in the units of the one token spent when there is one.
  const capToken = tokenFor(summaries.length === 1 ? (summaries[0]?.asset ?? "") : (policy.allowedToken ?? ""));
  const capText = (amount: SpendAmount | undefined) =>
    amount === undefined ? "unset" : describeSpendAmount(amount, capToken, { baseUnits: command.baseUnits });
  writeLine(stdout, `state folder ${policy.stateDir}`);
  writeLine(
    stdout,
    `caps: SVC_MAX_PER_PAYMENT ${capText(policy.maxPerPayment)}, SVC_MAX_TOTAL ${capText(policy.maxTotal)} (per network and token), SVC_APPROVE_ABOVE ${capText(policy.approveAbove)}`,
  );
  if (summaries.length === 0) writeLine(stdout, "no spend yet");
  for (const summary of summaries) {
    const format = formatFor(summary.asset);
    writeLine(
      stdout,
      `${summary.network} ${summary.asset}: total ${format(summary.total)}${summary.cap === null ? (policy.maxTotal === undefined ? "" : ` of ${capText(policy.maxTotal)}`) : ` of ${format(summary.cap)}, remaining ${format(summary.remaining ?? "0")}`} (settled ${format(summary.settled)}, pending ${format(summary.pending)}, failed after burn ${format(summary.failed)})`,
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
