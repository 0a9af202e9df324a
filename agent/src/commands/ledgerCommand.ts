import { Command, Option } from "./clipanion.js";

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
    // The implementation, and the cryptography and chain clients behind it, load only when this command runs.
    const { runLedger } = await import("./ledger.js");
    return runLedger(this);
  }
}
