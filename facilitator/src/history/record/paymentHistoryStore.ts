/**
 * The payment history as a port of the storage: the embedded storage keeps it in the `PAYMENT_HISTORY_PATH`
 * file (`paymentHistoryFileStore`), PostgreSQL in its history log every instance writes
 * (`openSharedPaymentHistory`). It is defined here, beside its consumer `openHistory`, so the storage adapters
 * that implement it import `history/` and not the reverse.
 */
import type { OpenHistoryFile, PaymentHistory } from "./openPaymentHistory.js";

/** Options of {@link PaymentHistoryStore.open}. */
export type PaymentHistoryOpenOptions = {
  /** A history folded in the background starts folding once this resolves (at once when omitted). */
  after?: Promise<unknown> | undefined;
  /** The largest history file folded in the foreground. */
  foregroundBytes: number;
  /** Opens the history file; tests pass one whose writes can fail. */
  openFile?: OpenHistoryFile | undefined;
};

/** An opened history and how its stored records are folded. */
export type OpenedPaymentHistory = {
  history: PaymentHistory;
  /**
   * True when the fold started at once, for the caller to await (`history.loaded`) before startup goes on;
   * false when it starts once `after` resolves.
   */
  foreground: boolean;
};

/** Where the storage keeps the payment history. */
export type PaymentHistoryStore = {
  /** `file`: this process's `PAYMENT_HISTORY_PATH` file; `shared`: the storage's history log every instance writes. */
  readonly kind: "file" | "shared";
  /** Opens the history at `path` (`PAYMENT_HISTORY_PATH`, which a shared store has no use for) and starts folding it. */
  open(path: string, options: PaymentHistoryOpenOptions): Promise<OpenedPaymentHistory>;
};
