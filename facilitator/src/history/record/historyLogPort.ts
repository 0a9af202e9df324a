/**
 * The port the shared payment history reads and writes. It is defined here, beside its consumer
 * (`openSharedPaymentHistory`), so the storage adapters that implement it import `history/` and not the reverse.
 */
import type { HistoryRecord } from "./historyRecord.js";

/**
 * Payment history records (`intent`, `accepted`, `finalized`, `proof_issued`) shared by every instance: the
 * same append-then-follow shape as the journal, so each instance folds every record once, in one order.
 */
export type HistoryLogPort = {
  /** Resolves once `record` is durable; the caller folds it when it comes back from `readSince`. */
  append(record: HistoryRecord): Promise<void>;
  /** Records appended after `cursor` (from the start when omitted) in append order, and the cursor to pass next. */
  readSince(cursor?: bigint): Promise<{ records: HistoryRecord[]; cursor: bigint }>;
  /** Deletes every record of these payments (history retention). */
  forget(paymentIds: readonly string[]): Promise<void>;
};
