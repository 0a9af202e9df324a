/** Errors of the crash-recovery journal. */
import { BaseError } from "../errors/base.js";

/** A complete line in the middle of the journal does not parse: the file was damaged, not torn. */
export class CorruptJournalError extends BaseError {
  override name = "CorruptJournalError";
  constructor({ path, lineNumber, cause }: { path: string; lineNumber: number; cause?: unknown }) {
    super(`journal ${path} is damaged at line ${lineNumber}`, {
      cause,
      details: "only a torn last line is repaired automatically; restore the file from a backup or move the damaged line aside after checking it",
    });
  }
}

/** A journal line parsed as JSON but is not a journal record this version understands. */
export class InvalidJournalRecordError extends BaseError {
  override name = "InvalidJournalRecordError";
  constructor({ path, index, cause }: { path: string; index: number; cause?: unknown }) {
    super(`journal ${path} record ${index + 1} is not a valid journal record`, { cause });
  }
}
