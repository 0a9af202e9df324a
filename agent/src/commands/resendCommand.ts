import { Command, Option } from "./clipanion.js";

/** `resend <id>`: re-sends a stored payment of unknown outcome, byte for byte. */
export class ResendCommand extends Command {
  static override paths = [["resend"]];

  static override usage = Command.Usage({
    description: "re-send a stored payment after a timeout or lost answer",
    details: `
      Sends exactly the \`PAYMENT-SIGNATURE\` bytes stored for the payment to the same URL, once; nothing is signed or burned again, so a payment that already settled gets the same accepted result and no second burn. Refused for a payment that is not pending (\`signed\` or \`unknown\`) and once its offer has expired: a new purchase needs a fresh 402.

      Exit codes as for \`pay\`.
    `,
    examples: [["Re-send payment 3f9a0c1b2d4e", "$0 resend 3f9a0c1b2d4e"]],
  });

  json = Option.Boolean("--json", false, { description: "print one JSON object with the result instead of the resource" });

  baseUnits = Option.Boolean("--base-units", false, { description: "show amounts in base units beside token units" });

  id = Option.String({ name: "id" });

  override async execute(): Promise<number> {
    // The implementation, and the cryptography and chain clients behind it, load only when this command runs.
    const { runResend } = await import("./resend.js");
    return runResend(this);
  }
}
