/**
 * Append-and-apply over a journal several instances write: a record is appended through the port and then
 * folded into this instance's book together with every record other instances appended before it, in the
 * journal's one order. Folding a record only when it comes back in that order (never at append time) keeps
 * every instance's book identical: an `intent_released` written by another instance can never be folded
 * after this instance's newer `intent` for the same payment. With the embedded journal the order is this
 * process's own, so the book is the one today's daemon builds. The shared payment history follows its own
 * log the same way.
 */
import type { JournalRecord } from "./journalRecord.js";

/** Where folded records go: the settlement book, and anything else that replays the journal. */
export type JournalFold<R = JournalRecord> = (record: R) => void;

/** An append-only log every instance writes and follows: the `JournalPort` or the `HistoryLogPort`. */
export type FollowedLog<R> = {
  append(record: R): Promise<void>;
  readSince(cursor?: bigint): Promise<{ records: R[]; cursor: bigint }>;
};

/** An instance's view of the shared journal. */
export type JournalFollower<R = JournalRecord> = {
  /**
   * Folds every record appended (by any instance) before the call and not folded yet; resolves to how many the
   * read that covered the call folded (calls made while a read waits for its turn share that read).
   */
  catchUp(): Promise<number>;
  /** Appends `record` durably, then catches up, so the record is folded in journal order before this resolves. */
  appendAndApply(record: R): Promise<void>;
};

/** Follows `journal` from its start, folding each record once, in order, into `fold`. */
export function createJournalFollower<R = JournalRecord>(journal: FollowedLog<R>, fold: JournalFold<R>): JournalFollower<R> {
  let cursor: bigint | undefined;
  // One catch-up at a time: two overlapping reads from one cursor would fold the same records twice.
  let tail: Promise<unknown> = Promise.resolve();
  // The catch-up queued behind the running one and not reading yet. A caller arriving now joins it: its read
  // starts later, so it folds every record appended before the call too. Without this, n concurrent settles
  // queued n reads one after another, and a broadcast journaling its relay under the key's nonce lock waited
  // behind all of them while every other broadcast of the key waited for the lock.
  let waiting: Promise<number> | undefined;
  const catchUp = (): Promise<number> => {
    if (waiting !== undefined) return waiting;
    const run = tail.then(async () => {
      waiting = undefined;
      const { records, cursor: next } = await journal.readSince(cursor);
      for (const record of records) fold(record);
      cursor = next;
      return records.length;
    });
    waiting = run;
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
