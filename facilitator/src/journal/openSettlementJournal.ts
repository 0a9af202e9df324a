/**
 * The settlement journal over a JSONL file, or nowhere (`journal = "none"`: pending work is lost on restart,
 * which the daemon warns about at start). Appends resolve only after fsync, so an accepted entry is durable
 * before `/settle` answers success.
 *
 * Compaction keeps the file bounded: the records of closed payments past retention ({@link planCompaction})
 * are appended (fsynced) to `<journal>.archive` and then the journal is replaced atomically by the rest. It
 * runs at start and after every {@link COMPACT_EVERY_APPENDS} appends. The archive is never replayed; rotate
 * or delete it as the operator's records policy says, or let `settlement.archive_retention_days` trim it.
 */
import { access } from "node:fs/promises";
import { InvalidJournalRecordError } from "./errors.js";
import { JournalRecordSchema, type JournalRecord } from "./journalRecord.js";
import { openJsonlFile, type JsonlFile } from "./jsonlFile.js";
import { planCompaction } from "./planCompaction.js";

/** Appends between two automatic compactions. */
export const COMPACT_EVERY_APPENDS = 10_000;

/** An open journal. */
export type SettlementJournal = {
  /** The records found at open, in order. */
  readonly restored: readonly JournalRecord[];
  /** Line number and size of a torn last line that was cut off at open (report it; never fatal). */
  readonly tornLine: { lineNumber: number; bytes: number } | undefined;
  append: (record: JournalRecord) => Promise<void>;
  /** Archives the records of closed payments past retention; resolves to how many left the journal. */
  compact: () => Promise<number>;
  close: () => Promise<void>;
};

/** How compaction decides what is past retention. */
export type JournalCompactionOptions = {
  /** `settlement.expired_challenge_retention_seconds`. */
  retentionSeconds: number;
  /** `settlement.late_burn_retention_days` in seconds; unset keeps late burns in the journal. */
  lateBurnRetentionSeconds?: number | undefined;
  /** Unix seconds. */
  now: () => number;
  /** Appends between automatic compactions (default {@link COMPACT_EVERY_APPENDS}). */
  compactEvery?: number;
  /** Archived records older than this (by their `at`) leave the archive at each compaction; unset keeps them. */
  archiveRetentionSeconds?: number | undefined;
};

/** Opens the journal at `path`, or an in-memory stand-in that keeps nothing when `path` is `null`. */
export async function openSettlementJournal(path: string | null, options?: JournalCompactionOptions): Promise<SettlementJournal> {
  if (path === null) {
    return { restored: [], tornLine: undefined, append: async () => undefined, compact: async () => 0, close: async () => undefined };
  }
  const file = await openJsonlFile(path);
  let restored: JournalRecord[];
  try {
    restored = file.lines.map((line, index) => {
      const parsed = JournalRecordSchema.safeParse(line);
      if (!parsed.success) throw new InvalidJournalRecordError({ path, index, cause: parsed.error });
      return parsed.data;
    });
  } catch (error) {
    await file.close();
    throw error;
  }

  // Everything the file holds, in file order: what the next compaction plans over.
  let held: JournalRecord[] = [...restored];
  let sinceCompaction = 0;
  let archive: Promise<JsonlFile> | undefined;
  // The archive's lines as last read or written, once it is open.
  let archived: unknown[] | undefined;
  const compact = async (): Promise<number> => {
    if (options === undefined) return 0;
    sinceCompaction = 0;
    const { keep, drop } = planCompaction(held, options.now(), options);
    const trim =
      options.archiveRetentionSeconds === undefined ? async () => undefined : () => trimArchive(options.now() - (options.archiveRetentionSeconds as number));
    if (drop.length === 0) {
      await trim();
      return 0;
    }
    held = keep;
    // Planned and queued in one step: appends queued earlier are in `keep`, later ones go to the new file.
    await file.replace(keep, {
      before: async () => {
        const opened = await openArchive();
        await opened.appendMany(drop);
        archived?.push(...drop);
      },
    });
    await trim();
    return drop.length;
  };
  // Opened once; with a retention its lines are tracked from then on, so a trim sees what was appended since.
  const openArchive = async (): Promise<JsonlFile> => {
    archive ??= openJsonlFile(`${path}.archive`).then((opened) => {
      if (options?.archiveRetentionSeconds !== undefined) archived = [...opened.lines];
      return opened;
    });
    return archive;
  };
  // The archive is rewritten without what is past its retention (atomically, as the journal is).
  const trimArchive = async (before: number): Promise<void> => {
    if (archive === undefined && !(await exists(`${path}.archive`))) return;
    const opened = await openArchive();
    if (archived === undefined) return;
    const kept = archived.filter((line) => typeof (line as { at?: unknown }).at !== "number" || (line as { at: number }).at >= before);
    if (kept.length === archived.length) return;
    await opened.replace(kept);
    archived = kept;
  };
  const append = async (record: JournalRecord): Promise<void> => {
    held.push(record);
    const written = file.append(record);
    if (options !== undefined && ++sinceCompaction >= (options.compactEvery ?? COMPACT_EVERY_APPENDS)) {
      // Queued behind this append; a failed compaction leaves the journal as it was, so it is not the caller's.
      void compact().catch(() => undefined);
    }
    await written;
  };
  const close = async () => {
    await file.close();
    if (archive) await (await archive).close();
  };
  return { restored, tornLine: file.tornLine, append, compact, close };
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
