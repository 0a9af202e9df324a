import { Ledger } from "../ledger/ledger.js";
import { remainingUnder } from "../ledger/remainingUnder.js";
import { summarizeSpend } from "../ledger/summarizeSpend.js";
import { type AmountFormat, readAmountFormats } from "../payment/amountFormat.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { Command, Option } from "./clipanion.js";
import { EXIT_OK } from "./exitCodes.js";
import { writeJsonLine, writeLine } from "./writeLine.js";

/** `ledger`: spend per network and token against the caps, and optionally every payment. */
export class LedgerCommand extends Command {
  static override paths = [["ledger"]];

  static override usage = Command.Usage({
    description: "show the spend per network and token against the caps",
    details: `
      Reads the spend ledger in the state folder (\`SVC_STATE_DIR\`) and prints, per network and token, what is settled, pending (reserved, signed, or of unknown outcome) and failed after a burn, their total against \`SVC_MAX_TOTAL\`, and what remains. \`--entries\` lists every payment with its id and status. Amounts are in token units with the symbol (base units with \`--base-units\`, and always in \`--json\`).
    `,
    examples: [
      ["Spend against the caps", "$0 ledger"],
      ["Every payment, machine-readable", "$0 ledger --entries --json"],
    ],
  });

  json = Option.Boolean("--json", false, { description: "print one JSON object per line instead of text" });

  showEntries = Option.Boolean("--entries", false, { description: "also list every payment" });

  baseUnits = Option.Boolean("--base-units", false, { description: "show amounts in base units beside token units" });

  override async execute(): Promise<number> {
    const { stdout, env } = this.context;
    const policy = loadPolicy(env);
    const entries = await new Ledger(policy.stateDir).entries();
    const cap = policy.maxTotal;
    const summaries = summarizeSpend(entries).map((summary) => ({
      ...summary,
      cap: cap ?? null,
      remaining: cap === undefined ? null : remainingUnder(cap, summary.total).toString(),
    }));
    if (this.json) {
      for (const summary of summaries) writeJsonLine(stdout, { type: "spend", ...summary });
      if (this.showEntries) {
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
    const assets = [...summaries.map((summary) => summary.asset), ...(this.showEntries ? entries.map((entry) => entry.asset) : [])];
    const formatFor = await readAmountFormats(policy, assets, { baseUnits: this.baseUnits });
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
    if (this.showEntries) {
      for (const entry of entries) {
        writeLine(
          stdout,
          `${entry.id}  ${entry.status.padEnd(8)}  ${formatFor(entry.asset)(entry.amount).padStart(24)}  ${entry.mode.padEnd(13)}  ${entry.createdAt}  ${entry.url}${entry.message === undefined ? "" : `  ${entry.message}`}`,
        );
      }
    }
    return EXIT_OK;
  }
}

function optionalAmount(value: string | undefined, format: AmountFormat): string {
  return value === undefined ? "unset" : format(value);
}
