import type { HistoryPaymentView } from "@svc/scheme";

import { loadHistoryConfig } from "../history/loadHistoryConfig.js";
import { openPayerHistory } from "../history/openPayerHistory.js";
import { Ledger } from "../ledger/ledger.js";
import type { LedgerEntry } from "../ledger/ledgerEntry.js";
import { type AmountFormat, readAmountFormats } from "../payment/amountFormat.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { EXIT_OK } from "./exitCodes.js";
import { writeJsonLine, writeLine } from "./writeLine.js";
import type { HistoryCommand } from "./historyCommand.js";

/** Runs `HistoryCommand` as parsed into `command`; returns the exit code. */
export async function runHistory(command: HistoryCommand): Promise<number> {
  const { stdout, env } = command.context;
  const policy = loadPolicy(env);
  const { client, token } = await openPayerHistory({ policy, config: loadHistoryConfig(env) });
  const payments = await client.listPayments(token);
  const localIds = localPaymentIds(await new Ledger(policy.stateDir).entries());
  if (command.json) {
    for (const payment of payments) writeJsonLine(stdout, { type: "payment", id: localIds.get(payment.paymentId.toLowerCase()) ?? null, ...payment });
    return EXIT_OK;
  }
  if (payments.length === 0) writeLine(stdout, "no payments recorded for this payer");
  const formatFor = await readAmountFormats(
    policy,
    payments.map((payment) => payment.asset),
    { baseUnits: command.baseUnits },
  );
  for (const payment of payments) {
    writeLine(stdout, describeHistoryPayment(payment, localIds.get(payment.paymentId.toLowerCase()), formatFor(payment.asset)));
  }
  return EXIT_OK;
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
