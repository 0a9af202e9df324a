/**
 * Append-and-apply over a journal several instances write: a record is appended through the port and then
 * folded into this instance's book together with every record other instances appended before it, in the
 * journal's one order. Folding a record only when it comes back in that order (never at append time) keeps
 * every instance's book identical: an `intent_released` written by another instance can never be folded
 * after this instance's newer `intent` for the same payment. With the embedded journal the order is this
 * process's own, so the book is the one today's daemon builds. The shared payment history follows its own
 * log the same way.
 */
import type { JournalRecord } from "../journal/journalRecord.js";

/** Where folded records go: the settlement book, and anything else that replays the journal. */
export type JournalFold<R = JournalRecord> = (record: R) => void;

/** An append-only log every instance writes and follows: the `JournalPort` or the `HistoryLogPort`. */
export type FollowedLog<R> = {
  append(record: R): Promise<void>;
  readSince(cursor?: bigint): Promise<{ records: R[]; cursor: bigint }>;
};

/** An instance's view of the shared journal. */
export type JournalFollower<R = JournalRecord> = {
  /** Folds every record appended since the last catch-up (by any instance); resolves to how many. */
  catchUp(): Promise<number>;
  /** Appends `record` durably, then catches up, so the record is folded in journal order before this resolves. */
  appendAndApply(record: R): Promise<void>;
};

/** Follows `journal` from its start, folding each record once, in order, into `fold`. */
export function createJournalFollower<R = JournalRecord>(journal: FollowedLog<R>, fold: JournalFold<R>): JournalFollower<R> {
  let cursor: bigint | undefined;
  // One catch-up at a time: two overlapping reads from one cursor would fold the same records twice.
  let tail: Promise<unknown> = Promise.resolve();
  const catchUp = (): Promise<number> => {
    const run = tail.then(async () => {
      const { records, cursor: next } = await journal.readSince(cursor);
      for (const record of records) fold(record);
      cursor = next;
      return records.length;
    });
    tail = run.catch(() => undefined);
    return run;
  };
  return {
    catchUp,
    appendAndApply: async (record) => {
      await journal.append(record);
      await catchUp();
    },
  };
}
