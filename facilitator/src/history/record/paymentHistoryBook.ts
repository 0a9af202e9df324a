import type { Hex } from "viem";

import type { HistoryIntentRecord, HistoryProofIssuedRecord, HistoryRecord } from "./historyRecord.js";

// Distinct shared values kept at most: past it, new values are simply not shared (memory stays bounded).
const MAX_SHARED_VALUES = 10_000;

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
  // One copy of each value most payments repeat (network, asset, recipient, amount, bindings): parsed from JSON,
  // every line would otherwise hold its own, and a million payments would hold a million copies of each.
  readonly #shared = new Map<string, unknown>();

  #share<T>(key: string, value: T): T {
    const known = this.#shared.get(key);
    if (known !== undefined) return known as T;
    if (this.#shared.size < MAX_SHARED_VALUES) this.#shared.set(key, value);
    return value;
  }

  #shareValues(entry: PaymentHistoryEntry): PaymentHistoryEntry {
    entry.network = this.#share(`n:${entry.network}`, entry.network);
    entry.asset = this.#share(`a:${entry.asset}`, entry.asset);
    entry.recipient = this.#share(`r:${entry.recipient}`, entry.recipient);
    entry.amount = this.#share(`v:${entry.amount}`, entry.amount);
    entry.bindings = this.#share(`b:${JSON.stringify(entry.bindings)}`, entry.bindings);
    return entry;
  }

  /** Folds one line. */
  apply(record: HistoryRecord): void {
    const entry = this.#entries.get(record.paymentId);
    switch (record.type) {
      case "intent":
        if (!entry) this.#entries.set(record.paymentId, this.#shareValues({ ...record, state: "intent" }));
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

  /**
   * The payments a retention of `retentionSeconds` lets go as of `now` (unix seconds): finalized, or never
   * accepted, with their last record older than that, and no proof of them that is still valid. An accepted
   * payment not yet finalized stays whatever its age.
   */
  expired(now: number, retentionSeconds: number): string[] {
    const promised = new Set<string>();
    for (const proof of this.#proofs.values()) if (proof.expiresAt >= now) promised.add(proof.paymentId);
    const expired: string[] = [];
    for (const [paymentId, entry] of this.#entries) {
      if (entry.state === "accepted" || promised.has(paymentId)) continue;
      const last = entry.finalizedAt ?? entry.at;
      if (last + retentionSeconds < now) expired.push(paymentId);
    }
    return expired;
  }

  /** Drops these payments and their proofs. */
  forget(paymentIds: readonly string[]): void {
    const gone = new Set(paymentIds);
    for (const paymentId of gone) this.#entries.delete(paymentId);
    for (const [proofId, proof] of this.#proofs) if (gone.has(proof.paymentId)) this.#proofs.delete(proofId);
  }

  /** Records that fold back into exactly this book, payments in intent order, then the proofs. */
  records(): HistoryRecord[] {
    const records: HistoryRecord[] = [];
    for (const { state, acceptedAt, burnTxHash, finalizedAt, mintTxHash, ...intent } of this.#entries.values()) {
      records.push(intent);
      if (acceptedAt !== undefined && burnTxHash !== undefined) {
        records.push({
          v: 1,
          type: "accepted",
          paymentId: intent.paymentId,
          at: acceptedAt,
          burnTxHash,
          ...(intent.payer === undefined ? {} : { payer: intent.payer }),
        });
      }
      if (state === "finalized" && finalizedAt !== undefined && mintTxHash !== undefined) {
        records.push({ v: 1, type: "finalized", paymentId: intent.paymentId, at: finalizedAt, mintTxHash });
      }
    }
    records.push(...this.#proofs.values());
    return records;
  }
}
