import { Command, Option } from "./clipanion.js";

/** `history`: the payer's payments as the facilitator recorded them. */
export class HistoryCommand extends Command {
  static override paths = [["history"]];

  static override usage = Command.Usage({
    description: "list the payer's payments recorded by the facilitator",
    details: `
      Logs in to the facilitator at \`SVC_FACILITATOR_URL\` as subject \`payer\`, signing the login message with \`SVC_PAYER_PK\` (EIP-191 personal-sign; the message authorizes no payment), and lists the payments bound to the payer: the agent's payment id (as \`pay\` and \`ledger\` print it, \`-\` for a payment made from another state folder), state, amount in token units, network, path, time, and the facilitator's payment id (the offer's challenge nonce). \`proof\` and \`resend\` accept either id. The host must be on \`SVC_ALLOWED_HOSTS\`.
    `,
    examples: [
      ["The payer's payments", "$0 history"],
      ["Machine-readable, one payment per line", "$0 history --json"],
    ],
  });

  json = Option.Boolean("--json", false, { description: "print one JSON object per payment instead of text" });

  baseUnits = Option.Boolean("--base-units", false, { description: "show amounts in base units beside token units" });

  override async execute(): Promise<number> {
    // The implementation, and the cryptography and chain clients behind it, load only when this command runs.
    const { runHistory } = await import("./history.js");
    return runHistory(this);
  }
}
