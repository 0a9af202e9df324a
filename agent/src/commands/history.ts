import type { HistoryPaymentView } from "@svc/scheme";

import { loadHistoryConfig } from "../history/loadHistoryConfig.js";
import { openPayerHistory } from "../history/openPayerHistory.js";
import { Ledger } from "../ledger/ledger.js";
import type { LedgerEntry } from "../ledger/ledgerEntry.js";
import { type AmountFormat, readAmountFormats } from "../payment/amountFormat.js";
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
    const { stdout, env } = this.context;
    const policy = loadPolicy(env);
    const { client, token } = await openPayerHistory({ policy, config: loadHistoryConfig(env) });
    const payments = await client.listPayments(token);
    const localIds = localPaymentIds(await new Ledger(policy.stateDir).entries());
    if (this.json) {
      for (const payment of payments) writeJsonLine(stdout, { type: "payment", id: localIds.get(payment.paymentId.toLowerCase()) ?? null, ...payment });
      return EXIT_OK;
    }
    if (payments.length === 0) writeLine(stdout, "no payments recorded for this payer");
    const formatFor = await readAmountFormats(
      policy,
      payments.map((payment) => payment.asset),
      { baseUnits: this.baseUnits },
    );
    for (const payment of payments) {
      writeLine(stdout, describeHistoryPayment(payment, localIds.get(payment.paymentId.toLowerCase()), formatFor(payment.asset)));
    }
    return EXIT_OK;
  }
}

/** The agent's own id of each payment in its ledger, by challenge nonce (the facilitator's payment id, lower-case). */
export function localPaymentIds(entries: readonly LedgerEntry[]): Map<string, string> {
  return new Map(entries.map((entry) => [entry.challengeNonce.toLowerCase(), entry.id]));
}

/**
 * One payment as one text line: the agent's id (`-` for a payment this state folder did not make), state,
 * amount, network, path, the latest time, and the facilitator's payment id; both ids are accepted by
 * `proof` and `resend`.
 */
export function describeHistoryPayment(payment: HistoryPaymentView, localId: string | undefined, format: AmountFormat): string {
  const at = payment.finalizedAt ?? payment.acceptedAt ?? payment.intentAt;
  return [
    (localId ?? "-").padEnd(12),
    payment.state.padEnd(9),
    format(payment.amount).padStart(16),
    payment.network,
    payment.path.padEnd(13),
    new Date(at * 1000).toISOString(),
    payment.paymentId,
  ].join("  ");
}
