/**
 * The payment history file at `PAYMENT_HISTORY_PATH` over the journal's crash-safe JSONL file: each append is
 * fsynced before it resolves and is applied to the in-memory book only after, so what reads show is durable;
 * a torn last line is cut off and reported.
 *
 * The file is folded into the book a chunk at a time, from the moment it is opened or once `options.after`
 * resolves, and `loaded` says when the fold is over: a daemon with a million records can serve before its
 * history is read. Every read and write
 * awaits the fold first (`catchUp`), so none of them sees a half-read history.
 */
import { type FoldedJsonlFile, type FoldOptions, openFoldedJsonlFile } from "../../journal/jsonlFile.js";
import { HistoryUnavailableError, PaymentHistoryFileError } from "../errors.js";
import { describeIssues } from "@svc/scheme";
import { HistoryRecordSchema, type HistoryRecord } from "./historyRecord.js";
import { PaymentHistoryBook } from "./paymentHistoryBook.js";

/** Opens a JSONL file folding its lines; replaceable so a test can make writes fail. */
export type OpenHistoryFile = (path: string, fold: (value: unknown, lineNumber: number) => void, options?: FoldOptions) => Promise<FoldedJsonlFile>;

/** What the fold of the stored history found. */
export type HistoryLoad = {
  /** Records folded. */
  records: number;
  /** The torn last line cut off, if any. */
  tornLine: { lineNumber: number; bytes: number } | undefined;
};

/** An open payment history. */
export type PaymentHistory = {
  readonly book: PaymentHistoryBook;
  /** Resolves once the stored records are in the book; rejects with `PaymentHistoryFileError` on a damaged record. */
  readonly loaded: Promise<HistoryLoad>;
  /**
   * Waits until the book holds every record stored so far, the file's or other instances'; every read awaits it
   * first. Rejects with `HistoryUnavailableError` (503) when the history could not be read.
   */
  catchUp: () => Promise<void>;
  /** Appends one line durably, then folds it into the book. */
  append: (record: HistoryRecord) => Promise<void>;
  /**
   * Lets go of the payments `history.retention_days` no longer keeps (see `PaymentHistoryBook.expired`) as of
   * `now` (unix seconds), durably; resolves to how many payments went.
   */
  prune: (now: number, retentionSeconds: number) => Promise<number>;
  close: () => Promise<void>;
};

/**
 * Opens (creating if missing) the payment history at `path` and starts folding it; throws
 * `PaymentHistoryFileError` when the file cannot be opened.
 */
export async function openPaymentHistory(path: string, openFile: OpenHistoryFile = openFoldedJsonlFile, options: FoldOptions = {}): Promise<PaymentHistory> {
  const book = new PaymentHistoryBook();
  let records = 0;
  const fold = (line: unknown, lineNumber: number) => {
    const parsed = HistoryRecordSchema.safeParse(line);
    if (!parsed.success) throw new PaymentHistoryFileError({ path, reason: `record ${lineNumber} is not a history record (${describeIssues(parsed.error)})` });
    book.apply(parsed.data);
    records++;
  };
  let file: FoldedJsonlFile;
  try {
    file = await openFile(path, fold, options);
  } catch (cause) {
    throw new PaymentHistoryFileError({ path, reason: "cannot be opened or is damaged", cause });
  }
  const loaded = file.loaded.then(
    ({ tornLine }): HistoryLoad => ({ records, tornLine }),
    (cause: unknown) => {
      throw cause instanceof PaymentHistoryFileError ? cause : new PaymentHistoryFileError({ path, reason: "cannot be read or is damaged", cause });
    },
  );
  // Seen by whoever awaits `loaded` or `catchUp`; not an unhandled rejection meanwhile.
  loaded.catch(() => undefined);
  const catchUp = async () => {
    try {
      await loaded;
    } catch (cause) {
      throw new HistoryUnavailableError({ cause });
    }
  };
  // An append folds its line only after the write; a prune plans over the book: one at a time, so no prune
  // rewrites the file from a book that lacks a line already written.
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
    const next = turn.then(run);
    turn = next.catch(() => undefined);
    return next;
  };
  return {
    book,
    loaded,
    catchUp,
    append: (record) =>
      inTurn(async () => {
        await catchUp();
        await file.append(record);
        book.apply(record);
      }),
    prune: (now, retentionSeconds) =>
      inTurn(async () => {
        await catchUp();
        const expired = book.expired(now, retentionSeconds);
        if (expired.length === 0) return 0;
        const kept = new PaymentHistoryBook();
        for (const record of book.records()) kept.apply(record);
        kept.forget(expired);
        await file.replace(kept.records());
        book.forget(expired);
        return expired.length;
      }),
    close: file.close,
  };
}
