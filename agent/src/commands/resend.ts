import { Ledger } from "../ledger/ledger.js";
import { amountFormat, BASE_UNITS_FORMAT } from "../payment/amountFormat.js";
import { resendPayment } from "../payment/resendPayment.js";
import { readTokenInfo } from "../payment/tokenInfo.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { BINARY_NAME } from "./binaryName.js";
import { Command, Option } from "./clipanion.js";
import { describeOutcome } from "./describeOutcome.js";
import { describePayEvent } from "./describePayEvent.js";
import { exitCodeFor } from "./exitCodes.js";
import { outcomeJson } from "./outcomeJson.js";
import { writeJsonLine, writeLine } from "./writeLine.js";

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
    const { stdout, stderr, env } = this.context;
    const policy = loadPolicy(env);
    let format = BASE_UNITS_FORMAT;
    const outcome = await resendPayment({
      id: this.id,
      policy,
      ledger: new Ledger(policy.stateDir),
      onEvent: (event) => {
        const line = this.json ? undefined : describePayEvent(event, BINARY_NAME, format);
        if (line !== undefined) writeLine(stderr, line);
      },
    });
    if (this.json) {
      writeJsonLine(stdout, outcomeJson(outcome));
    } else {
      if (outcome.kind !== "not-required" && outcome.kind !== "http-error" && outcome.offer !== undefined) {
        format = amountFormat(await readTokenInfo(policy, outcome.offer.asset), { baseUnits: this.baseUnits });
      }
      writeLine(stderr, describeOutcome(outcome, format));
      if (outcome.kind === "paid") stdout.write(outcome.resource.body.endsWith("\n") ? outcome.resource.body : `${outcome.resource.body}\n`);
    }
    return exitCodeFor(outcome);
  }
}
