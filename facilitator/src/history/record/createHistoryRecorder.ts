import { randomBytes } from "node:crypto";
import type { Address, Hex } from "viem";

import { HistoryWriteError } from "../errors.js";
import type { HistoryPayment, HistoryRecorder } from "./historyRecorder.js";
import type { PaymentHistory } from "./openPaymentHistory.js";
import type { ParticipantBindings } from "../participantBinding.js";

/** What the recorder writes with: the history, the bindings stamped on each record, and the payout destination. */
export type CreateHistoryRecorderParameters = {
  history: PaymentHistory;
  bindings: ParticipantBindings;
  /** `settlement.treasury`, kept as provider-side evidence. */
  recipient: Address;
  /** Unix seconds. */
  now: () => number;
};

/** A settlement the journal knows, as far as history reconciliation needs it (a `SettlementEntry` fits). */
export type ReconcilableSettlement = {
  challenge: { challengeNonce: Hex };
  state: "accepted" | "finalized" | "failed";
  burnTxHash: Hex;
  payer?: Address | undefined;
  at: number;
  mintTxHash?: Hex | undefined;
  finalizedAt?: number | undefined;
};

/** The recorder, plus a start-up catch-up for lines lost to a failed write after the burn. */
export type PaymentHistoryRecorder = HistoryRecorder & {
  /**
   * Appends the `accepted`/`finalized` lines the settlement journal proves but history lacks (a write failed
   * after settlement moved on); returns how many were written. Payments with no intent line stay unrecorded:
   * binding them after the fact would grant access nobody was given at payment time.
   */
  reconcile: (settlements: readonly ReconcilableSettlement[]) => Promise<number>;
};

/**
 * The history recorder behind the settlement seam. The intent line (payment facts, both participant bindings,
 * a fresh 32-byte salt) is fsynced before the burn; a failed write rejects, so settlement aborts with
 * `intent_not_recorded` and nothing is burned. A retried intent for a payment already recorded writes
 * nothing. `accepted` and `finalized` lines follow; without an intent line they are refused, not invented.
 *
 * @example
 * const recorder = createHistoryRecorder({ history, bindings, recipient: treasury, now: () => Math.floor(Date.now() / 1000) });
 */
export function createHistoryRecorder({ history, bindings, recipient, now }: CreateHistoryRecorderParameters): PaymentHistoryRecorder {
  const id = (challengeNonce: Hex) => paymentId(challengeNonce);
  const write = async (reason: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (cause) {
      throw new HistoryWriteError({ reason, cause });
    }
  };

  // Another instance may have written this payment's earlier records: fold them before deciding anything.
  const catchUp = () => write("the history could not be read", history.catchUp);

  const recordIntent = async (payment: HistoryPayment) => {
    const key = id(payment.challengeNonce);
    await catchUp();
    if (history.book.entry(key)) return;
    await write("the intent could not be appended", () =>
      history.append({
        v: 1,
        type: "intent",
        paymentId: key,
        at: now(),
        path: payment.path,
        network: payment.network,
        asset: payment.asset,
        payTo: payment.payTo,
        amount: payment.amount.toString(),
        ...(payment.payer === undefined ? {} : { payer: payment.payer }),
        recipient,
        bindings: { payer: { ...bindings.payer }, provider: { ...bindings.provider } },
        salt: randomBytes(32).toString("hex"),
      }),
    );
  };

  const recordAccepted = async (payment: { challengeNonce: Hex; burnTxHash: Hex; payer: Address | undefined }, at = now()) => {
    await catchUp();
    const entry = history.book.entry(id(payment.challengeNonce));
    if (!entry) throw new HistoryWriteError({ reason: "no intent was recorded for this payment" });
    if (entry.state !== "intent") return;
    await write("the accepted record could not be appended", () =>
      history.append({
        v: 1,
        type: "accepted",
        paymentId: entry.paymentId,
        at,
        burnTxHash: payment.burnTxHash,
        ...(payment.payer === undefined ? {} : { payer: payment.payer }),
      }),
    );
  };

  const recordFinalized = async (payment: { challengeNonce: Hex; mintTxHash: Hex }, at = now()) => {
    await catchUp();
    const entry = history.book.entry(id(payment.challengeNonce));
    if (!entry) throw new HistoryWriteError({ reason: "no intent was recorded for this payment" });
    if (entry.state === "finalized") return;
    await write("the finalized record could not be appended", () =>
      history.append({ v: 1, type: "finalized", paymentId: entry.paymentId, at, mintTxHash: payment.mintTxHash }),
    );
  };

  const reconcile = async (settlements: readonly ReconcilableSettlement[]) => {
    let written = 0;
    await catchUp();
    for (const settlement of settlements) {
      const entry = history.book.entry(id(settlement.challenge.challengeNonce));
      if (!entry || settlement.state === "failed") continue;
      if (entry.state === "intent") {
        await recordAccepted(
          { challengeNonce: settlement.challenge.challengeNonce, burnTxHash: settlement.burnTxHash, payer: settlement.payer },
          settlement.at,
        );
        written++;
      }
      if (settlement.state === "finalized" && settlement.mintTxHash !== undefined && history.book.entry(entry.paymentId)?.state !== "finalized") {
        await recordFinalized({ challengeNonce: settlement.challenge.challengeNonce, mintTxHash: settlement.mintTxHash }, settlement.finalizedAt ?? now());
        written++;
      }
    }
    return written;
  };

  return {
    recordIntent,
    recordAccepted: (payment) => recordAccepted(payment),
    recordFinalized: (payment) => recordFinalized(payment),
    reconcile,
  };
}

/** The payment id of a challenge: its nonce in lowercase, one spelling per payment. */
export function paymentId(challengeNonce: Hex): `0x${string}` {
  return `0x${challengeNonce.slice(2).toLowerCase()}`;
}
