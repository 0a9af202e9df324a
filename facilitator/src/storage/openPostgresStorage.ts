/**
 * The PostgreSQL storage adapter: the state several facilitator instances share. What must hold across
 * instances is the database's to guarantee:
 * - a settle claim is one row per challenge, taken by an `insert … on conflict … where lease ran out`, so
 *   two instances never both hold it;
 * - the finalize queue hands out rows with `for update skip locked` and a lease, so a mint has one owner
 *   and a crashed owner's work returns when its lease runs out;
 * - a shared key's broadcasts run one at a time under the row lock of the key's nonce counter, which
 *   moves only when a broadcast succeeded (a crash mid-broadcast rolls it back; the chain's pending count,
 *   read under the lock, then covers a transaction that did go out). The lock is held on a connection of
 *   its own pool, never the main pool's: the broadcast journals through the main pool while the lock is
 *   held, and a caller holding a main-pool connection while it waits for another would deadlock the pool
 *   once every connection waits on the lock. Within one instance a key's broadcasts queue in memory first,
 *   so each key holds at most one lock connection and a waiting broadcast holds none;
 * - journal appends take a transaction-scoped advisory lock, so sequence numbers commit in order and a
 *   reader following `seq` never skips a record that commits late;
 * - payment history records are appended the same way (their own lock and sequence), so every instance's
 *   history reads fold the same records in the same order;
 * - rate-limit counts are one row per key, updated under its row lock, on the database's clock.
 * Burn-address stock rows belong to the instance (`owner`) that derived them: a stocked address is handed
 * out by one instance only, and a lost instance's stock costs nothing but a re-derivation.
 */
import { redactUrl } from "../config/redactUrl.js";
import { COMPACT_EVERY_APPENDS, type JournalCompactionOptions } from "../journal/openSettlementJournal.js";
import { compactPostgresJournal } from "./compactPostgresJournal.js";
import { ChainIdentitySchema } from "../chain/chainIdentity.js";
import pg from "pg";
import { concat, keccak256, toHex, type Address, type Hex } from "viem";
import { BURN_ADDRESS_STOCK_TAG, type BurnAddressStockBinding, type BurnAddressStockStore, type StockedNonce } from "../challenges/burnAddressStock.js";
import { InvalidStorageUrlError, StorageUnreachableError } from "./errors.js";
import type { HistoryLogPort } from "../history/record/historyLogPort.js";
import { HistoryRecordSchema, type HistoryRecord } from "../history/record/historyRecord.js";
import { openSharedPaymentHistory } from "../history/record/openSharedPaymentHistory.js";
import { fromJournaledChallenge, toJournaledChallenge } from "../journal/journaledChallenge.js";
import { JournaledChallengeSchema, JournalRecordSchema, paymentNonceOf, type JournalRecord } from "../journal/journalRecord.js";
import { assertSchemaCurrent } from "./postgresMigrations.js";
import { decideSlidingWindow } from "../rateLimits/decideSlidingWindow.js";
import { guardPort, guardStorage } from "./guardStorage.js";
import type { FacilitatorStorage } from "./storagePorts.js";

/** Advisory lock key held while a journal record is appended (any fixed number unique to this schema). */
const JOURNAL_APPEND_LOCK = 720_017_002;

/** Advisory lock key held while a payment history record is appended. */
const HISTORY_APPEND_LOCK = 720_017_003;

/** How to reach the database. */
export type PostgresStorageOptions = {
  /** `postgres://user@host:port/db`; a password here works but belongs in `password` (from the environment). */
  url: string;
  /** The password, from the environment, never from a file that is printed. */
  password?: string;
  /** The name of the setting or variable the URL came from, for error messages. */
  variable?: string;
  /** Most connections the main pool opens (the nonce locks open up to {@link NONCE_LOCK_CONNECTIONS} more). */
  maxConnections?: number;
  /** Rate-limit takes between two sweeps of idle keys (default {@link RATE_LIMIT_SWEEP_EVERY}). */
  rateLimitSweepEvery?: number;
  /** The journal's compaction policy (`compact` does nothing without one). */
  compaction?: JournalCompactionOptions | undefined;
};

const key = (hex: string): string => hex.toLowerCase();

function bindingTag(binding: BurnAddressStockBinding): string {
  const seedTag = keccak256(concat([toHex(BURN_ADDRESS_STOCK_TAG), binding.seed]));
  return `${binding.protocol}:${binding.chainId}:${key(binding.treasury)}:${seedTag}`;
}

function challengeNonceOf(record: JournalRecord): string | null {
  return paymentNonceOf(record)?.toLowerCase() ?? null;
}

/**
 * Connections the nonce locks hold beside the main pool: one per shared key that broadcasts (the relayer
 * and the treasury).
 */
export const NONCE_LOCK_CONNECTIONS = 2;

/** Opens the pools on `options.url`, checks the database answers and its schema is current. */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<FacilitatorStorage> {
  const pool = await connectPostgres(options);
  let lockPool: pg.Pool | undefined;
  try {
    await assertSchemaCurrent(pool);
    lockPool = await connectPostgres({ ...options, maxConnections: NONCE_LOCK_CONNECTIONS });
  } catch (error) {
    await pool.end();
    throw error;
  }
  return createPostgresStorage(pool, { lockPool, rateLimitSweepEvery: options.rateLimitSweepEvery, compaction: options.compaction, url: options.url });
}

/** How long opening one database connection may take before the database counts as unavailable. */
export const CONNECT_TIMEOUT_MS = 5_000;

/** Opens a pool on `options.url` and checks the database answers (`migrate` and `check` start here). */
export async function connectPostgres(options: PostgresStorageOptions): Promise<pg.Pool> {
  const variable = options.variable ?? "storage.url";
  if (!URL.canParse(options.url) || !/^postgres(ql)?:$/.test(new URL(options.url).protocol)) {
    throw new InvalidStorageUrlError({ variable });
  }
  // The driver lets the URL's fields win over separate options, so a password from the environment goes
  // into the (never printed) connection string itself.
  const connection = new URL(options.url);
  if (options.password !== undefined) connection.password = encodeURIComponent(options.password);
  // A server that stops answering (rather than refusing) must not hold a request until the OS gives up on
  // the socket: new connections fail after a few seconds, and keepalive notices a silent peer sooner.
  const pool = new pg.Pool({
    connectionString: connection.toString(),
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle connection the server drops must not crash the process; the next query reconnects or fails.
  pool.on("error", () => undefined);
  try {
    await pool.query("select 1");
  } catch (cause) {
    await pool.end();
    throw new StorageUnreachableError({ url: options.url, cause });
  }
  return pool;
}

async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    const result = await work(client);
    await client.query("commit");
    return result;
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Rate-limit takes between two sweeps of idle keys. */
export const RATE_LIMIT_SWEEP_EVERY = 1_000;

/** What {@link createPostgresStorage} takes beside the main pool. */
export type PostgresStorageParameters = {
  /** The pool the nonce locks are held on (closed by `close` too); never the main pool (see the module comment). */
  lockPool: pg.Pool;
  rateLimitSweepEvery?: number | undefined;
  compaction?: JournalCompactionOptions | undefined;
  /** The database URL, shown redacted by readiness. */
  url?: string | undefined;
};

/**
 * The ports over open pools whose schema is current (both are closed by `close`); a lost connection
 * surfaces as `StorageUnavailableError` (see {@link guardStorage}).
 */
export function createPostgresStorage(pool: pg.Pool, { lockPool, rateLimitSweepEvery, compaction, url }: PostgresStorageParameters): FacilitatorStorage {
  const sweepEvery = rateLimitSweepEvery ?? RATE_LIMIT_SWEEP_EVERY;
  let takes = 0;
  // Per key, the tail of this instance's queue of broadcasts (see the module comment).
  const nonceTails = new Map<string, Promise<unknown>>();
  let appendsSinceCompaction = 0;
  const append = async (record: JournalRecord): Promise<void> => {
    // As the file journal does by itself: every so many appends of this instance, closed payments move out.
    if (compaction !== undefined && ++appendsSinceCompaction >= (compaction.compactEvery ?? COMPACT_EVERY_APPENDS)) {
      appendsSinceCompaction = 0;
      void compact().catch(() => undefined);
    }
    await inTransaction(pool, async (client) => {
      await client.query("select pg_advisory_xact_lock($1)", [JOURNAL_APPEND_LOCK]);
      await client.query("insert into journal_records (challenge_nonce, type, record) values ($1, $2, $3)", [
        challengeNonceOf(record),
        record.type,
        JSON.stringify(record),
      ]);
    });
  };
  const compact = async (): Promise<number> => {
    if (compaction === undefined) return 0;
    const moved = await compactPostgresJournal(pool, {
      now: compaction.now(),
      retentionSeconds: compaction.retentionSeconds,
      lateBurnRetentionSeconds: compaction.lateBurnRetentionSeconds,
      archiveRetentionSeconds: compaction.archiveRetentionSeconds,
      appendLock: JOURNAL_APPEND_LOCK,
    });
    return moved.archived;
  };
  // Only the shared history reads and writes it, so it is guarded here: guardStorage sees the history port only.
  const historyLog: HistoryLogPort = guardPort({
    append: async (record: HistoryRecord): Promise<void> => {
      await inTransaction(pool, async (client) => {
        // As for the journal: seq values commit in the order they were taken, so a follower never skips one.
        await client.query("select pg_advisory_xact_lock($1)", [HISTORY_APPEND_LOCK]);
        await client.query("insert into history_records (payment_id, type, record) values ($1, $2, $3)", [
          key(record.paymentId),
          record.type,
          JSON.stringify(record),
        ]);
      });
    },
    forget: async (paymentIds: readonly string[]): Promise<void> => {
      await pool.query("delete from history_records where payment_id = any($1::text[])", [paymentIds]);
    },
    readSince: async (cursor = 0n) => {
      const { rows } = await pool.query<{ seq: string; record: unknown }>("select seq, record from history_records where seq > $1 order by seq", [
        cursor.toString(),
      ]);
      return {
        records: rows.map((row) => HistoryRecordSchema.parse(row.record)),
        cursor: rows.length === 0 ? cursor : BigInt(rows[rows.length - 1]!.seq),
      };
    },
  });
  // A challenge row holds its journal form, the same JSON a `challenge` journal record carries (no burn secret).
  const readChallenge = (rows: { record: unknown }[]) =>
    rows[0] === undefined ? undefined : fromJournaledChallenge(JournaledChallengeSchema.parse(rows[0].record));

  return guardStorage({
    kind: "postgres",
    location: "the [storage] database",
    readiness: { detail: url === undefined ? { storage: "postgres" } : { storage: "postgres", url: redactUrl(url) }, failure: "unreachable" },
    challenges: {
      put: async (challenge) => {
        await pool.query("insert into challenges (challenge_nonce, pay_to, record) values ($1, $2, $3) on conflict (challenge_nonce) do nothing", [
          key(challenge.challengeNonce),
          key(challenge.payTo),
          JSON.stringify(toJournaledChallenge(challenge)),
        ]);
      },
      get: async (challengeNonce: Hex) =>
        readChallenge((await pool.query("select record from challenges where challenge_nonce = $1", [key(challengeNonce)])).rows),
      findByPayTo: async (payTo: Address) => readChallenge((await pool.query("select record from challenges where pay_to = $1", [key(payTo)])).rows),
    },
    journal: {
      append,
      readSince: async (cursor = 0n) => {
        const { rows } = await pool.query<{ seq: string; record: unknown }>("select seq, record from journal_records where seq > $1 order by seq", [
          cursor.toString(),
        ]);
        return {
          records: rows.map((row) => JournalRecordSchema.parse(row.record)),
          cursor: rows.length === 0 ? cursor : BigInt(rows[rows.length - 1]!.seq),
        };
      },
      compact,
    },
    chainIdentity: {
      claim: async (identity) => {
        await pool.query("insert into chain_identity (chain_id, genesis_hash) values ($1, $2) on conflict (singleton) do nothing", [
          identity.chainId,
          identity.genesisHash.toLowerCase(),
        ]);
        const { rows } = await pool.query<{ chain_id: string; genesis_hash: string }>("select chain_id, genesis_hash from chain_identity");
        const row = rows[0];
        return row === undefined ? identity : ChainIdentitySchema.parse({ chainId: Number(row.chain_id), genesisHash: row.genesis_hash });
      },
    },
    history: {
      kind: "shared",
      // The database's history is always folded in the background, once `after` resolves: it has no file size
      // to judge by, and a shared history grows with every instance's payments.
      open: async (_path, { after }) => ({ history: openSharedPaymentHistory(historyLog, { after }), foreground: false }),
    },
    settleClaims: {
      claim: async (challengeNonce, owner, leaseMs) => {
        const { rowCount } = await pool.query(
          `insert into settle_claims (challenge_nonce, owner, lease_until)
             values ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
           on conflict (challenge_nonce) do update set owner = excluded.owner, lease_until = excluded.lease_until
             where not settle_claims.completed
               and (settle_claims.owner = excluded.owner or settle_claims.lease_until < clock_timestamp())`,
          [key(challengeNonce), owner, leaseMs],
        );
        return rowCount === 1;
      },
      release: async (challengeNonce, owner) => {
        await pool.query("delete from settle_claims where challenge_nonce = $1 and owner = $2 and not completed", [key(challengeNonce), owner]);
      },
      complete: async (challengeNonce, owner) => {
        const { rowCount } = await pool.query("update settle_claims set completed = true where challenge_nonce = $1 and owner = $2 and not completed", [
          key(challengeNonce),
          owner,
        ]);
        return rowCount === 1;
      },
    },
    finalizeQueue: {
      enqueue: async (challengeNonce) => {
        await pool.query("insert into finalize_queue (challenge_nonce) values ($1) on conflict do nothing", [key(challengeNonce)]);
      },
      lease: async (owner, limit, leaseMs) => {
        const { rows } = await pool.query<{ challenge_nonce: Hex }>(
          `update finalize_queue q set owner = $1, lease_until = clock_timestamp() + $2 * interval '1 millisecond'
             from (select challenge_nonce from finalize_queue
                     where lease_until is null or lease_until < clock_timestamp()
                     order by enqueued_at limit $3 for update skip locked) free
           where q.challenge_nonce = free.challenge_nonce
           returning q.challenge_nonce`,
          [owner, leaseMs, limit],
        );
        return rows.map((row) => row.challenge_nonce);
      },
      release: async (challengeNonce, owner) => {
        // To the back of the queue: a batch of payments not due yet must not hold back the ones behind it.
        await pool.query(
          "update finalize_queue set owner = null, lease_until = null, enqueued_at = clock_timestamp() where challenge_nonce = $1 and owner = $2",
          [key(challengeNonce), owner],
        );
      },
      complete: async (challengeNonce, owner) => {
        const { rowCount } = await pool.query("delete from finalize_queue where challenge_nonce = $1 and owner = $2", [key(challengeNonce), owner]);
        return rowCount === 1;
      },
    },
    relayNonces: {
      withNextNonce: (chainId, account, pendingNonce, broadcast) => {
        const slot = `${chainId}:${key(account)}`;
        const turn = (nonceTails.get(slot) ?? Promise.resolve()).then(() =>
          inTransaction(lockPool, async (client) => {
            await client.query("insert into relay_nonces (chain_id, account, next_nonce) values ($1, $2, 0) on conflict do nothing", [chainId, key(account)]);
            const { rows } = await client.query<{ next_nonce: string }>("select next_nonce from relay_nonces where chain_id = $1 and account = $2 for update", [
              chainId,
              key(account),
            ]);
            // Read under the lock: a broadcast another instance made a moment ago is already in the pending count.
            const nonce = Math.max(await pendingNonce(), Number(rows[0]!.next_nonce));
            // Held until the node answered, even once the transaction was sent: a refusal must give its nonce
            // back before any instance signs the next one, since a gap another instance cannot see stands until
            // its monitor's gap deadline.
            const result = await broadcast(nonce, () => {});
            await client.query("update relay_nonces set next_nonce = $3 where chain_id = $1 and account = $2", [chainId, key(account), nonce + 1]);
            return result;
          }),
        );
        const tail = turn.catch(() => undefined);
        nonceTails.set(slot, tail);
        // The map keeps only queues that still have a turn waiting.
        void tail.then(() => {
          if (nonceTails.get(slot) === tail) nonceTails.delete(slot);
        });
        return turn;
      },
    },
    rateLimits: {
      take: async (rateKey, limit, windowMs) => {
        takes += 1;
        // Keys idle for two windows count nothing any more: drop them now and then so the table stays small.
        // Rows a take holds are skipped, so the sweep never waits on (or deadlocks with) a request.
        if (takes % sweepEvery === 0) {
          await pool.query(
            `delete from rate_limits where limit_key in (
               select limit_key from rate_limits
                where window_start < floor(extract(epoch from clock_timestamp()) * 1000)::bigint - 2 * window_ms
                for update skip locked)`,
          );
        }
        return inTransaction(pool, async (client) => {
          const slot = `${limit}/${windowMs}/${rateKey}`;
          await client.query(
            "insert into rate_limits (limit_key, window_ms, window_start, previous, current) values ($1, $2, 0, 0, 0) on conflict do nothing",
            [slot, windowMs],
          );
          const locked = await client.query<{ window_start: string; previous: number; current: number }>(
            "select window_start, previous, current from rate_limits where limit_key = $1 for update",
            [slot],
          );
          // Read after the row lock: the database's clock, the same for every instance.
          const clock = await client.query<{ now: string }>("select floor(extract(epoch from clock_timestamp()) * 1000)::bigint as now");
          const now = Number(clock.rows[0]!.now);
          const stored = locked.rows[0] ?? { window_start: "0", previous: 0, current: 0 };
          const { decision, counts } = decideSlidingWindow(
            { windowStart: Number(stored.window_start), previous: stored.previous, current: stored.current },
            now,
            limit,
            windowMs,
          );
          await client.query("update rate_limits set window_start = $2, previous = $3, current = $4 where limit_key = $1", [
            slot,
            counts.windowStart,
            counts.previous,
            counts.current,
          ]);
          return decision;
        });
      },
    },
    witnessState: {
      load: async (binding) => {
        const { rows } = await pool.query<{ state: string }>("select state from witness_follower where binding = $1", [binding]);
        return rows[0]?.state;
      },
      // Compare-and-set on the leaf count: each instance follows on its own, and the row only moves forward.
      save: async (binding, leaves, body) => {
        const { rowCount } = await pool.query(
          `insert into witness_follower (binding, leaves, state) values ($1, $2, $3)
           on conflict (binding) do update set leaves = excluded.leaves, state = excluded.state, saved_at = now()
           where witness_follower.leaves <= excluded.leaves`,
          [binding, leaves.toString(), body],
        );
        return rowCount === 1;
      },
    },
    openBurnAddressStock: async (binding, owner) => {
      const tag = bindingTag(binding);
      await pool.query("delete from burn_address_stock where owner = $1 and binding_tag <> $2", [owner, tag]);
      const { rows } = await pool.query<{ payment_id: Hex; nonce: string }>(
        "select payment_id, nonce from burn_address_stock where owner = $1 and binding_tag = $2",
        [owner, tag],
      );
      const restored: StockedNonce[] = rows.map((row) => ({ paymentId: row.payment_id, nonce: BigInt(row.nonce) }));
      const stock: BurnAddressStockStore = {
        restored,
        add: async (entry) => {
          await pool.query("insert into burn_address_stock (payment_id, owner, binding_tag, nonce) values ($1, $2, $3, $4) on conflict do nothing", [
            key(entry.paymentId),
            owner,
            tag,
            entry.nonce.toString(),
          ]);
        },
        take: async (paymentId) => {
          await pool.query("delete from burn_address_stock where payment_id = $1 and owner = $2", [key(paymentId), owner]);
        },
        close: async () => undefined,
      };
      return stock;
    },
    ping: async () => {
      await pool.query("select 1");
    },
    close: async () => {
      await Promise.all([pool.end(), lockPool.end()]);
    },
  });
}
