/**
 * The payment history in a file of its own (`PAYMENT_HISTORY_PATH`): the embedded storage's history. A file up
 * to `foregroundBytes` is folded before startup goes on, a larger one once `after` resolves, so startup time
 * does not grow with history.
 */
import { stat } from "node:fs/promises";

import { openPaymentHistory } from "./openPaymentHistory.js";
import type { PaymentHistoryStore } from "./paymentHistoryStore.js";

/** Opens (creating if missing) the history file at the path it is given. */
export const paymentHistoryFileStore: PaymentHistoryStore = {
  kind: "file",
  open: async (path, { after, foregroundBytes, openFile }) => {
    const foreground = (await storedBytes(path)) <= foregroundBytes;
    const history = await openPaymentHistory(path, openFile, { after: foreground ? undefined : after });
    return { history, foreground };
  },
};

async function storedBytes(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    // Missing: opening creates it; unreadable: opening says so by name.
    return 0;
  }
}
