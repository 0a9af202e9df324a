/**
 * A backup of the facilitator's state that round-trips between the two storages: the chain identity, issued
 * challenges, journal records and payment-history records, as JSON lines under a header. Reading never
 * writes (a running daemon's files may be read; a torn last line, one being appended, is left out); writing
 * goes only into an empty state, so an import never mixes two histories.
 *
 * The file storage keeps challenges as `challenge` journal records and history in `PAYMENT_HISTORY_PATH`;
 * PostgreSQL keeps each in its table. A backup holds each kind apart, so either storage restores from it.
 */
import { access, readFile } from "node:fs/promises";
import type pg from "pg";
import { z } from "zod";
import { type ChainIdentity, ChainIdentitySchema } from "../chain/chainIdentity.js";
import { BaseError } from "../errors/base.js";
import { HistoryRecordSchema, type HistoryRecord } from "../history/record/historyRecord.js";
import { claimChainIdentityFile, readChainIdentityFile } from "../journal/chainIdentityFile.js";
import { JournalRecordSchema, JournaledChallengeSchema, paymentNonceOf, type JournaledChallenge, type JournalRecord } from "../journal/journalRecord.js";
import { openJsonlFile } from "../journal/jsonlFile.js";
import { lockJournal } from "../journal/journalLock.js";

/** The first line of a backup. */
export const BackupHeaderSchema = z.object({
  format: z.literal("svc-facilitator-backup"),
  version: z.literal(1),
  chain: ChainIdentitySchema.nullable(),
});

const BackupLineSchema = z.union([
  z.object({ challenge: JournaledChallengeSchema }),
  z.object({ journal: JournalRecordSchema }),
  z.object({ history: HistoryRecordSchema }),
]);

/** A whole backup, in memory. */
export type StateBackup = {
  chain: ChainIdentity | null;
  challenges: JournaledChallenge[];
  journal: JournalRecord[];
  history: HistoryRecord[];
};

/** Where state lives: the file storage (journal and optional history file) or a PostgreSQL pool. */
export type StateLocation = { kind: "file"; journalPath: string; historyPath: string | undefined } | { kind: "postgres"; pool: pg.Pool };

/** A backup file that is not one, or a target that is not empty. */
export class StateBackupError extends BaseError {
  override name = "StateBackupError";
}

/** Serialises `backup` as JSON lines. */
export function formatBackup(backup: StateBackup): string {
  const lines: unknown[] = [
    { format: "svc-facilitator-backup", version: 1, chain: backup.chain },
    ...backup.challenges.map((challenge) => ({ challenge })),
    ...backup.journal.map((journal) => ({ journal })),
    ...backup.history.map((history) => ({ history })),
  ];
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

/** Parses a backup file's text; `StateBackupError` names the first line that is not a backup line. */
export function parseBackup(text: string): StateBackup {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const header = BackupHeaderSchema.safeParse(safeJson(lines[0] ?? ""));
  if (!header.success) throw new StateBackupError("line 1 is not an svc-facilitator backup header (format svc-facilitator-backup, version 1)");
  const backup: StateBackup = { chain: header.data.chain, challenges: [], journal: [], history: [] };
  for (const [index, text] of lines.slice(1).entries()) {
    const parsed = BackupLineSchema.safeParse(safeJson(text));
    if (!parsed.success) throw new StateBackupError(`line ${index + 2} is not a challenge, journal or history line of a backup`);
    const line = parsed.data;
    if ("challenge" in line) backup.challenges.push(line.challenge);
    else if ("journal" in line) backup.journal.push(line.journal);
    else backup.history.push(line.history);
  }
  return backup;
}

/** Reads the state at `location` without writing anything. */
export async function readState(location: StateLocation): Promise<StateBackup> {
  if (location.kind === "postgres") return readPostgresState(location.pool);
  const journal = await readCompleteLines(location.journalPath, (line) => JournalRecordSchema.parse(line));
  const history = location.historyPath === undefined ? [] : await readCompleteLines(location.historyPath, (line) => HistoryRecordSchema.parse(line));
  return {
    chain: (await readChainIdentityFile(location.journalPath)) ?? null,
    challenges: journal.flatMap((record) => (record.type === "challenge" ? [record.challenge] : [])),
    journal: journal.filter((record) => record.type !== "challenge"),
    history,
  };
}

/** Writes `backup` into the empty state at `location`; refuses (touching nothing) when it is not empty. */
export async function writeState(location: StateLocation, backup: StateBackup): Promise<void> {
  if (location.kind === "postgres") return writePostgresState(location.pool, backup);
  if (backup.history.length > 0 && location.historyPath === undefined) {
    throw new StateBackupError(`the backup holds ${backup.history.length} payment-history records: set PAYMENT_HISTORY_PATH to restore them`);
  }
  const lock = await lockJournal(location.journalPath);
  try {
    for (const path of [location.journalPath, location.historyPath]) {
      if (path !== undefined && (await exists(path))) throw new StateBackupError(`${path} exists: import writes only into an empty state`);
    }
    const journal = await openJsonlFile(location.journalPath);
    try {
      // Challenges first: the daemon restores an offer before the records of its payment.
      await journal.appendMany([
        ...backup.challenges.map((challenge): JournalRecord => ({ type: "challenge", challenge, at: challenge.issuedAt })),
        ...backup.journal,
      ]);
    } finally {
      await journal.close();
    }
    if (location.historyPath !== undefined && backup.history.length > 0) {
      const history = await openJsonlFile(location.historyPath);
      try {
        await history.appendMany(backup.history);
      } finally {
        await history.close();
      }
    }
    if (backup.chain !== null) await claimChainIdentityFile(location.journalPath, backup.chain);
  } finally {
    await lock.release();
  }
}

async function readPostgresState(pool: pg.Pool): Promise<StateBackup> {
  const client = await pool.connect();
  try {
    // One snapshot of every table, while instances keep appending.
    await client.query("begin isolation level repeatable read read only");
    const chain = (await client.query<{ chain_id: string; genesis_hash: string }>("select chain_id, genesis_hash from chain_identity")).rows[0];
    const challenges = (await client.query<{ record: unknown }>("select record from challenges order by issued_at, challenge_nonce")).rows;
    const journal = (await client.query<{ record: unknown }>("select record from journal_records order by seq")).rows;
    const history = (await client.query<{ record: unknown }>("select record from history_records order by seq")).rows;
    await client.query("commit");
    return {
      chain: chain === undefined ? null : ChainIdentitySchema.parse({ chainId: Number(chain.chain_id), genesisHash: chain.genesis_hash }),
      challenges: challenges.map((row) => JournaledChallengeSchema.parse(row.record)),
      journal: journal.map((row) => JournalRecordSchema.parse(row.record)),
      history: history.map((row) => HistoryRecordSchema.parse(row.record)),
    };
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function writePostgresState(pool: pg.Pool, backup: StateBackup): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    const { rows } = await client.query<{ filled: boolean }>(
      `select exists (select 1 from journal_records) or exists (select 1 from challenges)
           or exists (select 1 from history_records) or exists (select 1 from chain_identity) as filled`,
    );
    if (rows[0]?.filled) throw new StateBackupError("the [storage] database holds state already: import writes only into an empty database");
    if (backup.chain !== null) {
      await client.query("insert into chain_identity (chain_id, genesis_hash) values ($1, $2)", [backup.chain.chainId, backup.chain.genesisHash.toLowerCase()]);
    }
    for (const challenge of backup.challenges) {
      await client.query("insert into challenges (challenge_nonce, pay_to, record) values ($1, $2, $3)", [
        challenge.challengeNonce.toLowerCase(),
        challenge.payTo.toLowerCase(),
        JSON.stringify(challenge),
      ]);
    }
    for (const record of backup.journal) {
      await client.query("insert into journal_records (challenge_nonce, type, record) values ($1, $2, $3)", [
        paymentNonceOf(record)?.toLowerCase() ?? null,
        record.type,
        JSON.stringify(record),
      ]);
    }
    for (const record of backup.history) {
      await client.query("insert into history_records (payment_id, type, record) values ($1, $2, $3)", [
        record.paymentId.toLowerCase(),
        record.type,
        JSON.stringify(record),
      ]);
    }
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

// Complete lines only: a line still being appended (no newline yet) is not part of the state.
async function readCompleteLines<T>(path: string, parse: (line: unknown) => T): Promise<T[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const complete = text.slice(0, text.lastIndexOf("\n") + 1);
  return complete
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, index) => {
      const value = safeJson(line);
      try {
        return parse(value);
      } catch (cause) {
        throw new StateBackupError(`${path} line ${index + 1} is not a valid record`, { cause });
      }
    });
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
