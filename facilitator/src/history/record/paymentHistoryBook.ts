import type { Hex } from "viem";

import type { HistoryIntentRecord, HistoryProofIssuedRecord, HistoryRecord } from "./historyRecord.js";

/** One payment's history folded from its lines: the intent record plus how far it got. */
export type PaymentHistoryEntry = HistoryIntentRecord & {
  state: "intent" | "accepted" | "finalized";
  acceptedAt?: number;
  burnTxHash?: Hex;
  finalizedAt?: number;
  mintTxHash?: Hex;
};

/** A registered proof. */
export type IssuedProof = HistoryProofIssuedRecord;

/**
 * The in-memory state of the history file, folded line by line at open and after each append. Lines about a
 * payment without an intent line are dropped: such a payment has no bindings, so nobody may see it anyway.
 */
export class PaymentHistoryBook {
  readonly #entries = new Map<string, PaymentHistoryEntry>();
  readonly #proofs = new Map<string, IssuedProof>();

  /** Folds one line. */
  apply(record: HistoryRecord): void {
    const entry = this.#entries.get(record.paymentId);
    switch (record.type) {
      case "intent":
        if (!entry) this.#entries.set(record.paymentId, { ...record, state: "intent" });
        return;
      case "accepted":
        if (!entry) return;
        entry.acceptedAt ??= record.at;
        entry.burnTxHash ??= record.burnTxHash;
        if (record.payer !== undefined) entry.payer = record.payer;
        if (entry.state === "intent") entry.state = "accepted";
        return;
      case "finalized":
        if (!entry) return;
        entry.finalizedAt ??= record.at;
        entry.mintTxHash ??= record.mintTxHash;
        entry.state = "finalized";
        return;
      case "proof_issued":
        if (entry) this.#proofs.set(record.proofId, record);
        return;
    }
  }

  /** The payment with this id (the lowercase challenge nonce). */
  entry(paymentId: string): PaymentHistoryEntry | undefined {
    return this.#entries.get(paymentId.toLowerCase());
  }

  /** Every payment, in the order their intents were written. */
  entries(): PaymentHistoryEntry[] {
    return [...this.#entries.values()];
  }

  /** A registered proof. */
  proof(proofId: string): IssuedProof | undefined {
    return this.#proofs.get(proofId);
  }
}
