/**
 * The settlement state folded from the journal: the book, the follower that keeps it in the journal's one
 * order (with `[storage]`, together with what other instances append), and the daemon's one append-and-apply.
 * Restoring it reports what a stop left pending and lets history catch up on what it missed.
 */
import { createJournalFollower, type JournalFollower } from "../journal/createJournalFollower.js";
import type { JournaledChallenge, JournalRecord } from "../journal/journalRecord.js";
import type { Logger } from "../log/createLogger.js";
import { SettlementBook } from "../settlement/settlementBook.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";
import type { HistoryWiring } from "./wireHistory.js";

/** What {@link wireJournal} reads. */
export type JournalParts = {
  storage: FacilitatorStorage;
  history: Pick<HistoryWiring, "history">;
  logger: Logger;
};

/** The restored settlement state. */
export type JournalWiring = {
  book: SettlementBook;
  follower: JournalFollower;
  /** Challenges journaled before this start, to restore into the store once it exists. */
  restoredChallenges: readonly JournaledChallenge[];
  /**
   * Makes one record durable, then folds it into the book; an accept also queues the mint. Every writer
   * journals through this.
   */
  record: (record: JournalRecord) => Promise<void>;
  /** Archives what the retention settings let go of (logs `journal_compacted` when it did). */
  compact: () => Promise<void>;
};

/** Restores the journal into a new book. */
export async function wireJournal({ storage, logger, ...parts }: JournalParts): Promise<JournalWiring> {
  const { history } = parts.history;
  if (storage.tornJournalLine) logger.warn("journal_torn_line_repaired", { line: storage.tornJournalLine.lineNumber, bytes: storage.tornJournalLine.bytes });
  const book = new SettlementBook();
  const restoredChallenges: JournaledChallenge[] = [];
  let restoring = true;
  const follower = createJournalFollower(storage.journal, (record) => {
    book.apply(record);
    if (restoring && record.type === "challenge") restoredChallenges.push(record.challenge);
  });
  const restoredRecords = await follower.catchUp();
  restoring = false;
  const pending = book.list("accepted").length;
  logger.info("journal_restored", {
    records: restoredRecords,
    pending,
    open_intents: book.openIntents().length,
    storage: storage.kind,
  });
  const reconcileHistory = async () => {
    const caughtUp = (await history?.recorder.reconcile(book.list())) ?? 0;
    if (caughtUp > 0) logger.info("history_reconciled", { records: caughtUp });
  };
  // A history still loading is reconciled once loaded.
  if (history?.loading)
    void history.loading
      .then(reconcileHistory)
      .catch((error: unknown) => logger.warn("history_reconcile_failed", { error: error instanceof Error ? error.name : "unknown" }));
  else await reconcileHistory();

  return {
    book,
    follower,
    restoredChallenges,
    // In the journal's one order (with [storage], together with what other instances appended).
    record: async (record) => {
      await follower.appendAndApply(record);
      if (record.type === "accepted") await storage.finalizeQueue.enqueue(record.challenge.challengeNonce);
    },
    compact: async () => {
      const archived = await storage.journal.compact();
      if (archived > 0) logger.info("journal_compacted", { archived });
    },
  };
}
