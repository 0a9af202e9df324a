import type { HistoryPaymentView } from "@svc/scheme";

import { loadHistoryConfig } from "../history/loadHistoryConfig.js";
import { openPayerHistory } from "../history/openPayerHistory.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { Command, Option } from "./clipanion.js";
import { EXIT_OK } from "./exitCodes.js";
import { writeJsonLine, writeLine } from "./writeLine.js";

/** `history`: the payer's payments as the facilitator recorded them. */
export class HistoryCommand extends Command {
  static override paths = [["history"]];

  static override usage = Command.Usage({
    description: "list the payer's payments recorded by the facilitator",
    details: `
      Logs in to the facilitator at \`SVC_FACILITATOR_URL\` as subject \`payer\`, signing the login message with \`SVC_PAYER_PK\` (EIP-191 personal-sign; the message authorizes no payment), and lists the payments bound to the payer: id (the offer's challenge nonce), state, amount in base units, network, token, path and times. The host must be on \`SVC_ALLOWED_HOSTS\`.
    `,
    examples: [
      ["The payer's payments", "$0 history"],
      ["Machine-readable, one payment per line", "$0 history --json"],
    ],
  });

  json = Option.Boolean("--json", false, { description: "print one JSON object per payment instead of text" });

  override async execute(): Promise<number> {
    const { stdout, env } = this.context;
    const policy = loadPolicy(env);
    const { client, token } = await openPayerHistory({ policy, config: loadHistoryConfig(env) });
    const payments = await client.listPayments(token);
    if (this.json) {
      for (const payment of payments) writeJsonLine(stdout, { type: "payment", ...payment });
      return EXIT_OK;
    }
    if (payments.length === 0) writeLine(stdout, "no payments recorded for this payer");
    for (const payment of payments) writeLine(stdout, describeHistoryPayment(payment));
    return EXIT_OK;
  }
}

/** One payment as one text line: id, state, amount, network, token, path and the latest time. */
export function describeHistoryPayment(payment: HistoryPaymentView): string {
  const at = payment.finalizedAt ?? payment.acceptedAt ?? payment.intentAt;
  return [
    payment.paymentId,
    payment.state.padEnd(9),
    payment.amount.padStart(24),
    payment.network,
    payment.asset,
    payment.path.padEnd(13),
    new Date(at * 1000).toISOString(),
  ].join("  ");
}
