/**
 * The payment history in the database, for several instances on PostgreSQL (`[storage]`): records go to the
 * storage's history log instead of the `PAYMENT_HISTORY_PATH` file, and each instance folds every record, its
 * own and the others', once and in the log's order. An append is folded only when it comes back from the
 * log, and every read catches up first, so a payer's history on one instance shows what another recorded.
 */
import { createJournalFollower } from "../../journal/createJournalFollower.js";
import type { HistoryLogPort } from "./historyLogPort.js";
import type { PaymentHistory } from "./openPaymentHistory.js";
import { PaymentHistoryBook } from "./paymentHistoryBook.js";

/** Opens the shared history over `log` and folds what it holds so far (`loaded`), at once or once `options.after` resolves. */
export function openSharedPaymentHistory(log: HistoryLogPort, options: { after?: Promise<unknown> | undefined } = {}): PaymentHistory {
  const book = new PaymentHistoryBook();
  const follower = createJournalFollower(log, (record) => book.apply(record));
  const loaded = Promise.resolve(options.after).then(async () => ({ records: await follower.catchUp(), tornLine: undefined }));
  loaded.catch(() => undefined);
  return {
    book,
    loaded,
    catchUp: async () => {
      await loaded;
      await follower.catchUp();
    },
    append: follower.appendAndApply,
    // Deleted for every instance; another instance's book keeps them until it restarts.
    prune: async (now, retentionSeconds) => {
      await loaded;
      await follower.catchUp();
      const expired = book.expired(now, retentionSeconds);
      if (expired.length === 0) return 0;
      await log.forget(expired);
      book.forget(expired);
      return expired.length;
    },
    // The storage owns the connection; the daemon closes it.
    close: async () => undefined,
  };
}
