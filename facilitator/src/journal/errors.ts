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

/** Another daemon holds the journal's lock: two daemons on one journal would each replay and rewrite its files. */
export class JournalLockedError extends BaseError {
  override name = "JournalLockedError";
  /** The lock file. */
  readonly path: string;

  constructor({ path, holder }: { path: string; holder: { pid: number; hostname: string } | undefined }) {
    super(
      holder === undefined
        ? `the journal is locked by another daemon starting right now (${path}): one daemon per settlement.journal`
        : `the journal is locked by the daemon with pid ${holder.pid} on ${holder.hostname} (${path}): stop it, or give this daemon a settlement.journal of its own`,
      {
        details:
          "one daemon per settlement.journal: stop the other one, or give this one a journal of its own; remove the lock file only when that daemon is known to be gone (a lock from another host is never taken over)",
      },
    );
    this.path = path;
  }
}

/** The journal's chain identity file exists but is not one. */
export class InvalidChainIdentityFileError extends BaseError {
  override name = "InvalidChainIdentityFileError";
  constructor({ path, cause }: { path: string; cause?: unknown }) {
    super(`the chain identity file ${path} is not valid`, {
      cause,
      details:
        "it records which chain the journal belongs to (chainId and genesisHash); restore it from a backup, or remove it to record the chain the daemon runs on next",
    });
  }
}
