import { requestApproval } from "../approvals/requestApproval.js";
import { Ledger } from "../ledger/ledger.js";
import { amountFormat, BASE_UNITS_FORMAT } from "../payment/amountFormat.js";
import { payUrl } from "../payment/payUrl.js";
import { readTokenInfo } from "../payment/tokenInfo.js";
import { PayerKeyMissingError } from "../policy/errors.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { BINARY_NAME } from "./binaryName.js";
import { Command, Option } from "./clipanion.js";
import { describeOutcome } from "./describeOutcome.js";
import { describePayEvent } from "./describePayEvent.js";
import { exitCodeFor } from "./exitCodes.js";
import { outcomeJson } from "./outcomeJson.js";
import { parseUrlArgument } from "./parseUrlArgument.js";
import { writeJsonLine, writeLine } from "./writeLine.js";

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
    const { stdout, stderr, env } = this.context;
    const url = parseUrlArgument(this.url);
    const policy = loadPolicy(env);
    // Before the first request: asking for an offer makes the facilitator spend a one-time burn address.
    if (policy.payerKey === undefined) throw new PayerKeyMissingError();
    let format = BASE_UNITS_FORMAT;
    // Ctrl-C while a human is being asked withdraws the request and releases the reservation instead of
    // leaving it to count against the cap; at any other moment the default (exit at once) applies.
    const interrupted = new AbortController();
    const interrupt = () => interrupted.abort();
    const outcome = await payUrl({
      url,
      policy,
      ledger: new Ledger(policy.stateDir),
      readToken: (asset) => readTokenInfo(policy, asset),
      baseUnits: this.baseUnits,
      approve: async (request) => {
        try {
          return await requestApproval({ stateDir: policy.stateDir, request, signal: interrupted.signal });
        } finally {
          process.off("SIGINT", interrupt).off("SIGTERM", interrupt);
        }
      },
      onEvent: (event) => {
        if (event.type === "quoted") format = amountFormat(event.token, { baseUnits: this.baseUnits });
        // Armed before the hint below is printed: a Ctrl-C by whoever read it must find the handler in place.
        if (event.type === "approval-pending") process.once("SIGINT", interrupt).once("SIGTERM", interrupt);
        // The approval hint goes out in --json mode too: a supervisor has to learn the id somewhere.
        if (this.json && event.type !== "approval-pending") return;
        const line = describePayEvent(event, BINARY_NAME, format);
        if (line !== undefined) writeLine(stderr, line);
      },
    });
    if (this.json) {
      writeJsonLine(stdout, outcomeJson(outcome));
    } else {
      writeLine(stderr, describeOutcome(outcome, format));
      if (outcome.kind === "paid" || outcome.kind === "not-required") {
        const { body } = outcome.resource;
        stdout.write(body.endsWith("\n") || body === "" ? body : `${body}\n`);
      }
    }
    return exitCodeFor(outcome);
  }
}
