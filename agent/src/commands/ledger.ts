import { Ledger } from "../ledger/ledger.js";
import { summarizeSpend } from "../ledger/summarizeSpend.js";
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
      Reads the spend ledger in the state folder (\`SVC_STATE_DIR\`) and prints, per network and token, what is settled, pending (reserved, signed, or of unknown outcome) and failed after a burn, their total against \`SVC_MAX_TOTAL\`, and what remains. \`--entries\` lists every payment with its id and status. All amounts are base units.
    `,
    examples: [
      ["Spend against the caps", "$0 ledger"],
      ["Every payment, machine-readable", "$0 ledger --entries --json"],
    ],
  });

  json = Option.Boolean("--json", false, { description: "print one JSON object per line instead of text" });

  showEntries = Option.Boolean("--entries", false, { description: "also list every payment" });

  override async execute(): Promise<number> {
    const { stdout, env } = this.context;
    const policy = loadPolicy(env);
    const entries = await new Ledger(policy.stateDir).entries();
    const cap = policy.maxTotal;
    const summaries = summarizeSpend(entries).map((summary) => ({
      ...summary,
      cap: cap ?? null,
      remaining: cap === undefined ? null : maxZero(BigInt(cap) - BigInt(summary.total)).toString(),
    }));
    if (this.json) {
      for (const summary of summaries) writeJsonLine(stdout, { type: "spend", ...summary });
      if (this.showEntries) {
        for (const { paymentHeader: _sent, ...entry } of entries) writeJsonLine(stdout, { type: "payment", ...entry });
      }
      return EXIT_OK;
    }
    writeLine(stdout, `state folder ${policy.stateDir}`);
    writeLine(stdout, `caps: SVC_MAX_PER_PAYMENT ${policy.maxPerPayment ?? "unset"}, SVC_MAX_TOTAL ${cap ?? "unset"} (per network and token), SVC_APPROVE_ABOVE ${policy.approveAbove ?? "unset"}`);
    if (summaries.length === 0) writeLine(stdout, "no spend yet");
    for (const summary of summaries) {
      writeLine(
        stdout,
        `${summary.network} ${summary.asset}: total ${summary.total}${cap === undefined ? "" : ` of ${cap}, remaining ${summary.remaining}`} (settled ${summary.settled}, pending ${summary.pending}, failed after burn ${summary.failed})`,
      );
    }
    if (this.showEntries) {
      for (const entry of entries) {
        writeLine(stdout, `${entry.id}  ${entry.status.padEnd(8)}  ${entry.amount.padStart(24)}  ${entry.mode.padEnd(13)}  ${entry.createdAt}  ${entry.url}${entry.message === undefined ? "" : `  ${entry.message}`}`);
      }
    }
    return EXIT_OK;
  }
}

function maxZero(value: bigint): bigint {
  return value < 0n ? 0n : value;
}
