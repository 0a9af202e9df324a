import { Command, Option } from "./clipanion.js";

/** `pay <url>`: buys a resource under the policy and prints it; the exit code says how it ended. */
export class PayCommand extends Command {
  static override paths = [["pay"]];

  static override usage = Command.Usage({
    description: "pay for a resource and print it",
    details: `
      Requests the URL; if it answers 402 with an svc-zerc20 offer, checks the policy (hosts, network, token, caps), reserves the amount in the spend ledger, waits for approval when the amount is above \`SVC_APPROVE_ABOVE\`, signs (permit) or burns (self-transfer), stores the signed payment, sends it once and prints the resource to stdout. Progress goes to stderr. Never retries: after a timeout or lost answer run \`resend <id>\`.

      Exit codes: 0 paid (or nothing to pay), 1 payment failed, 2 usage or configuration mistake, 3 declined by policy, 4 approval denied or timed out, 5 outcome unknown (the spend stays reserved), 6 the resource answered a non-2xx status other than 402 (nothing paid), 130 interrupted while waiting for approval.
    `,
    examples: [
      ["Pay for the demo weather report", `SVC_PAYER_PK=0x... $0 pay http://127.0.0.1:4021/weather`],
      ["One machine-readable result line", `$0 pay --json http://127.0.0.1:4021/weather`],
    ],
  });

  json = Option.Boolean("--json", false, { description: "print one JSON object with the result instead of the resource" });

  baseUnits = Option.Boolean("--base-units", false, { description: "show amounts in base units beside token units" });

  url = Option.String({ name: "url" });

  override async execute(): Promise<number> {
    // The implementation, and the cryptography and chain clients behind it, load only when this command runs.
    const { runPay } = await import("./pay.js");
    return runPay(this);
  }
}
