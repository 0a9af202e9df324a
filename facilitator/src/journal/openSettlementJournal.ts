/**
 * The settlement journal over a JSONL file, or nowhere (`journal = "none"`: pending work is lost on restart,
 * which the daemon warns about at start). Appends resolve only after fsync, so an accepted entry is durable
 * before `/settle` answers success.
 */
import { InvalidJournalRecordError } from "../errors/journal.js";
import { JournalRecordSchema, type JournalRecord } from "./journalRecord.js";
import { openJsonlFile } from "./jsonlFile.js";

/** An open journal. */
export type SettlementJournal = {
  /** The records found at open, in order. */
  readonly restored: readonly JournalRecord[];
  /** Line number and size of a torn last line that was cut off at open (report it; never fatal). */
  readonly tornLine: { lineNumber: number; bytes: number } | undefined;
  append: (record: JournalRecord) => Promise<void>;
  close: () => Promise<void>;
};

/** Opens the journal at `path`, or an in-memory stand-in that keeps nothing when `path` is `null`. */
export async function openSettlementJournal(path: string | null): Promise<SettlementJournal> {
  if (path === null) {
    return { restored: [], tornLine: undefined, append: async () => undefined, close: async () => undefined };
  }
  const file = await openJsonlFile(path);
  try {
    const restored = file.lines.map((line, index) => {
      const parsed = JournalRecordSchema.safeParse(line);
      if (!parsed.success) throw new InvalidJournalRecordError({ path, index, cause: parsed.error });
      return parsed.data;
    });
    return { restored, tornLine: file.tornLine, append: (record) => file.append(record), close: file.close };
  } catch (error) {
    await file.close();
    throw error;
  }
}
