/**
 * Compaction of the PostgreSQL journal, by the same rule as the file journal's (journal/planCompaction.ts):
 * the records of a payment that is closed and past `expiresAt + settlement.expired_challenge_retention_seconds`
 * move to `journal_archive` in one transaction, and its challenge, claim and queue rows go; so do challenges
 * never paid once past retention. Without it the tables grow with every payment ever made and every
 * instance replays them all at start. With `settlement.archive_retention_days`, archived records older than that
 * (by their `at`) are deleted in the same transaction.
 *
 * One instance compacts at a time (a transaction-scoped advisory lock; another instance skips its turn), and
 * appends wait for the compaction's transaction, so no record is appended between the read and the move.
 */
import type pg from "pg";
import { JournalRecordSchema, paymentNonceOf, type JournalRecord } from "../journal/journalRecord.js";
import { type CompactionRetention, planCompaction } from "../journal/planCompaction.js";

// Distinct from the append and nonce locks (openPostgresStorage.ts).
const COMPACTION_LOCK = 720_017_004;

/** What one compaction moved. */
export type PostgresCompaction = { archived: number; challengesDropped: number };

/** Compacts as of `now` (unix seconds); `appendLock` is the advisory lock every journal append takes. */
export async function compactPostgresJournal(
  pool: pg.Pool,
  params: CompactionRetention & { now: number; appendLock: number; archiveRetentionSeconds?: number | undefined },
): Promise<PostgresCompaction> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    const { rows: turn } = await client.query<{ locked: boolean }>("select pg_try_advisory_xact_lock($1) as locked", [COMPACTION_LOCK]);
    if (!turn[0]?.locked) {
      await client.query("rollback");
      return { archived: 0, challengesDropped: 0 };
    }
    await client.query("select pg_advisory_xact_lock($1)", [params.appendLock]);
    const { rows } = await client.query<{ seq: string; record: unknown }>("select seq, record from journal_records order by seq");
    const seqOf = new Map<JournalRecord, string>();
    const records = rows.map((row) => {
      const record = JournalRecordSchema.parse(row.record);
      seqOf.set(record, row.seq);
      return record;
    });
    const { drop } = planCompaction(records, params.now, params);
    const seqs = drop.map((record) => seqOf.get(record) as string);
    const closed = [...new Set(drop.flatMap(paymentNoncesOf))];
    if (seqs.length > 0) {
      await client.query(
        `insert into journal_archive (seq, challenge_nonce, type, record, appended_at)
         select seq, challenge_nonce, type, record, appended_at from journal_records where seq = any($1::bigint[])`,
        [seqs],
      );
      await client.query("delete from journal_records where seq = any($1::bigint[])", [seqs]);
      await client.query("delete from settle_claims where challenge_nonce = any($1::text[])", [closed]);
      await client.query("delete from finalize_queue where challenge_nonce = any($1::text[])", [closed]);
    }
    // A challenge goes with its closed payment, or unpaid once past retention (no record names it).
    const { rowCount } = await client.query(
      `delete from challenges c
       where c.challenge_nonce = any($1::text[])
          or ((c.record->>'expiresAt')::bigint + $2 < $3
              and not exists (select 1 from journal_records j where j.challenge_nonce = c.challenge_nonce))`,
      [closed, params.retentionSeconds, params.now],
    );
    // Archived records past the archive's retention (by their `at`, as in the file archive) go for good.
    if (params.archiveRetentionSeconds !== undefined) {
      await client.query("delete from journal_archive where (record->>'at')::bigint < $1", [params.now - params.archiveRetentionSeconds]);
    }
    await client.query("commit");
    return { archived: seqs.length, challengesDropped: rowCount ?? 0 };
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

// The payments a record belongs to, lower-cased as the tables key them.
function paymentNoncesOf(record: JournalRecord): string[] {
  if (record.type === "fee_sweep_batch") return record.challengeNonces.map((nonce) => nonce.toLowerCase());
  const nonce = paymentNonceOf(record);
  return nonce === undefined ? [] : [nonce.toLowerCase()];
}
