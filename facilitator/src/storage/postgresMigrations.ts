/**
 * The PostgreSQL schema as numbered migrations. Each runs once, in order, in its own transaction, under an
 * advisory lock so two instances migrating at once do not race; applied versions are recorded in
 * `svc_schema_migrations`. A migration is never edited once released: later changes are new migrations.
 */
import type pg from "pg";
import { StorageSchemaMismatchError } from "./errors.js";

/** One schema step. */
export type PostgresMigration = { version: number; name: string; sql: string };

/** Advisory lock key that serialises migrations (any fixed number unique to this schema). */
const MIGRATION_LOCK = 720_017_001;

/** Every migration, oldest first. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: "shared settlement state",
    sql: `
      create table challenges (
        challenge_nonce text primary key,
        pay_to text not null unique,
        record jsonb not null,
        issued_at timestamptz not null default now()
      );
      create table journal_records (
        seq bigserial primary key,
        challenge_nonce text,
        type text not null,
        record jsonb not null,
        appended_at timestamptz not null default now()
      );
      create index journal_records_challenge_nonce on journal_records (challenge_nonce);
      create table settle_claims (
        challenge_nonce text primary key,
        owner text not null,
        lease_until timestamptz not null,
        completed boolean not null default false
      );
      create table finalize_queue (
        challenge_nonce text primary key,
        enqueued_at timestamptz not null default clock_timestamp(),
        owner text,
        lease_until timestamptz
      );
      create index finalize_queue_enqueued_at on finalize_queue (enqueued_at);
      create table relay_nonces (
        chain_id bigint not null,
        account text not null,
        next_nonce bigint not null,
        primary key (chain_id, account)
      );
      create table rate_limits (
        limit_key text primary key,
        window_ms bigint not null,
        window_start bigint not null,
        previous integer not null,
        current integer not null
      );
      create index rate_limits_window_start on rate_limits (window_start);
      create table burn_address_stock (
        payment_id text primary key,
        owner text not null,
        binding_tag text not null,
        nonce numeric(20, 0) not null
      );
      create index burn_address_stock_owner on burn_address_stock (owner, binding_tag);
    `,
  },
  {
    version: 2,
    name: "shared payment history",
    sql: `
      create table history_records (
        seq bigserial primary key,
        payment_id text not null,
        type text not null,
        record jsonb not null,
        appended_at timestamptz not null default now()
      );
      create index history_records_payment_id on history_records (payment_id);
    `,
  },
  {
    version: 3,
    name: "chain identity",
    sql: `
      create table chain_identity (
        singleton boolean primary key default true check (singleton),
        chain_id bigint not null,
        genesis_hash text not null,
        recorded_at timestamptz not null default now()
      );
    `,
  },
  {
    version: 4,
    name: "journal archive",
    sql: `
      create table journal_archive (
        seq bigint primary key,
        challenge_nonce text,
        type text not null,
        record jsonb not null,
        appended_at timestamptz not null,
        archived_at timestamptz not null default now()
      );
    `,
  },
  {
    version: 5,
    name: "followed transfer tree",
    sql: `
      create table witness_follower (
        binding text primary key,
        leaves numeric(20, 0) not null,
        state text not null,
        saved_at timestamptz not null default now()
      );
    `,
  },
];

/** The schema version this code needs. */
export const LATEST_SCHEMA_VERSION = POSTGRES_MIGRATIONS.at(-1)?.version ?? 0;

const CREATE_LEDGER = `create table if not exists svc_schema_migrations (
  version integer primary key,
  name text not null,
  applied_at timestamptz not null default now()
)`;

/** The highest applied version (0 on an empty database). */
export async function readSchemaVersion(pool: pg.Pool): Promise<number> {
  const exists = await pool.query<{ present: boolean }>("select to_regclass('svc_schema_migrations') is not null as present");
  if (!exists.rows[0]?.present) return 0;
  const { rows } = await pool.query<{ version: number | null }>("select max(version) as version from svc_schema_migrations");
  return rows[0]?.version ?? 0;
}

/** Applies the migrations the database lacks; resolves to the versions applied now (empty when current). */
export async function migratePostgres(pool: pg.Pool): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await client.query(CREATE_LEDGER);
      const { rows } = await client.query<{ version: number }>("select version from svc_schema_migrations");
      const done = new Set(rows.map((row) => row.version));
      for (const migration of POSTGRES_MIGRATIONS) {
        if (done.has(migration.version)) continue;
        await client.query("begin");
        try {
          await client.query(migration.sql);
          await client.query("insert into svc_schema_migrations (version, name) values ($1, $2)", [migration.version, migration.name]);
          await client.query("commit");
        } catch (error) {
          await client.query("rollback");
          throw error;
        }
        applied.push(migration.version);
      }
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
  return applied;
}

/** Throws {@link StorageSchemaMismatchError} unless the database is exactly at {@link LATEST_SCHEMA_VERSION}. */
export async function assertSchemaCurrent(pool: pg.Pool): Promise<void> {
  const applied = await readSchemaVersion(pool);
  if (applied !== LATEST_SCHEMA_VERSION) throw new StorageSchemaMismatchError({ applied, expected: LATEST_SCHEMA_VERSION });
}
