/**
 * The payment history file at `PAYMENT_HISTORY_PATH` over the journal's crash-safe JSONL file: each append is
 * fsynced before it resolves and is applied to the in-memory book only after, so what reads show is durable;
 * a torn last line is cut off at open and reported.
 */
import { openJsonlFile, type JsonlFile } from "../../journal/jsonlFile.js";
import { PaymentHistoryFileError } from "../errors.js";
import { describeIssues } from "@svc/scheme";
import { HistoryRecordSchema, type HistoryRecord } from "./historyRecord.js";
import { PaymentHistoryBook } from "./paymentHistoryBook.js";

/** Opens a JSONL file; replaceable so a test can make writes fail. */
export type OpenHistoryFile = (path: string) => Promise<JsonlFile>;

/** An open payment history. */
export type PaymentHistory = {
  readonly book: PaymentHistoryBook;
  /** The torn last line cut off at open, if any. */
  readonly tornLine: JsonlFile["tornLine"];
  /** Folds what other instances appended since the last call; every read awaits it first (nothing to do for the file). */
  catchUp: () => Promise<void>;
  /** Appends one line durably, then folds it into the book. */
  append: (record: HistoryRecord) => Promise<void>;
  close: () => Promise<void>;
};

/** Opens (creating if missing) the payment history at `path`; throws `PaymentHistoryFileError`. */
export async function openPaymentHistory(path: string, openFile: OpenHistoryFile = openJsonlFile): Promise<PaymentHistory> {
  let file: JsonlFile;
  try {
    file = await openFile(path);
  } catch (cause) {
    throw new PaymentHistoryFileError({ path, reason: "cannot be opened or is damaged", cause });
  }
  const book = new PaymentHistoryBook();
  for (const [index, line] of file.lines.entries()) {
    const parsed = HistoryRecordSchema.safeParse(line);
    if (!parsed.success) {
      await file.close();
      throw new PaymentHistoryFileError({ path, reason: `record ${index + 1} is not a history record (${describeIssues(parsed.error)})` });
    }
    book.apply(parsed.data);
  }
  return {
    book,
    tornLine: file.tornLine,
    // One process writes the file, so the book already holds every line.
    catchUp: async () => undefined,
    append: async (record) => {
      await file.append(record);
      book.apply(record);
    },
    close: file.close,
  };
}
