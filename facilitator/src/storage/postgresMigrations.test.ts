import { createServer, type AddressInfo, type Socket } from "node:net";
import { waitFor } from "@svc/anvil-fixtures";
import { startPostgres, type RunningPostgres } from "@svc/anvil-fixtures/postgres";
import { openTestPool } from "../testing/openTestPool.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidStorageUrlError, StorageSchemaMismatchError, StorageUnreachableError } from "./errors.js";
import { CONNECT_TIMEOUT_MS, openPostgresStorage } from "./openPostgresStorage.js";
import { LATEST_SCHEMA_VERSION, migratePostgres, POSTGRES_MIGRATIONS, readSchemaVersion } from "./postgresMigrations.js";

let server: RunningPostgres;

beforeAll(async () => {
  server = await startPostgres();
});

afterAll(async () => {
  await server?.stop();
});

describe("postgres migrations", () => {
  it("migrate brings an empty database to the latest version once, even when two instances migrate together", async () => {
    const url = await server.createDatabase();
    const first = openTestPool(url);
    const second = openTestPool(url);
    try {
      expect(await readSchemaVersion(first)).toBe(0);
      const [a, b] = await Promise.all([migratePostgres(first), migratePostgres(second)]);
      expect([...a, ...b].sort()).toEqual(Array.from({ length: LATEST_SCHEMA_VERSION }, (_, index) => index + 1));
      expect(await readSchemaVersion(second)).toBe(LATEST_SCHEMA_VERSION);
      expect(await migratePostgres(first)).toEqual([]);
    } finally {
      await first.end();
      await second.end();
    }
  });

  it("a database of the first release is refused until migrate adds the shared history, keeping its journal", async () => {
    const url = await server.createDatabase();
    const pool = openTestPool(url);
    try {
      const first = POSTGRES_MIGRATIONS[0]!;
      await pool.query("create table svc_schema_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())");
      await pool.query(first.sql);
      await pool.query("insert into svc_schema_migrations (version, name) values ($1, $2)", [first.version, first.name]);
      await pool.query("insert into journal_records (challenge_nonce, type, record) values (null, 'intent_released', '{}')");
      expect(await openPostgresStorage({ url }).catch((caught: unknown) => caught)).toBeInstanceOf(StorageSchemaMismatchError);
      expect(await migratePostgres(pool)).toEqual(POSTGRES_MIGRATIONS.slice(1).map((migration) => migration.version));
      expect(await readSchemaVersion(pool)).toBe(LATEST_SCHEMA_VERSION);
      expect((await pool.query("select count(*)::int as n from journal_records")).rows[0].n).toBe(1);
      expect((await pool.query("select count(*)::int as n from history_records")).rows[0].n).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it("opening an unmigrated database refuses with the migrate hint", async () => {
    const url = await server.createDatabase();
    const error = await openPostgresStorage({ url }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StorageSchemaMismatchError);
    expect((error as Error).message).toContain("svc-facilitator migrate");
  });

  it("a wrong password or a closed port is reported without the credential", async () => {
    const url = await server.createDatabase();
    const wrong = new URL(url);
    wrong.password = "not-the-password-4821";
    const refused = await openPostgresStorage({ url: wrong.toString() }).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(StorageUnreachableError);
    expect((refused as Error).message).not.toContain("not-the-password-4821");
    expect((refused as Error).message).toContain("***");

    const closed = new URL(url);
    closed.port = "1";
    const unreachable = await openPostgresStorage({ url: closed.toString() }).catch((caught: unknown) => caught);
    expect(unreachable).toBeInstanceOf(StorageUnreachableError);
    expect((unreachable as Error).message).not.toContain(new URL(url).password);
  });

  it(
    "a server that accepts but never answers is reported unreachable once the connect timeout passes",
    async () => {
      const held: Socket[] = [];
      const silent = createServer((socket) => held.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      const { port } = silent.address() as AddressInfo;
      try {
        const url = new URL(await server.createDatabase());
        url.port = String(port);
        const error = await openPostgresStorage({ url: url.toString() }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(StorageUnreachableError);
        expect(held.length).toBeGreaterThan(0);
      } finally {
        for (const socket of held) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    },
    CONNECT_TIMEOUT_MS + 10_000,
  );

  it("the password may come apart from a credential-free URL", async () => {
    const url = new URL(await server.createDatabase());
    const password = url.password;
    const pool = openTestPool(url.toString());
    await migratePostgres(pool);
    await pool.end();
    url.password = "";
    const storage = await openPostgresStorage({ url: url.toString(), password });
    await expect(storage.ping()).resolves.toBeUndefined();
    await storage.close();
  });

  it("a URL that is not postgres names the setting, not the value", async () => {
    const error = await openPostgresStorage({ url: "https://user:secret-77@host/db", variable: "SVC_STORAGE_URL" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidStorageUrlError);
    expect((error as Error).message).toContain("SVC_STORAGE_URL");
    expect((error as Error).message).not.toContain("secret-77");
  });

  it("rate-limit keys idle for two windows are swept, the ones in use are kept", async () => {
    const url = await server.createDatabase();
    const pool = openTestPool(url);
    await migratePostgres(pool);
    const storage = await openPostgresStorage({ url, rateLimitSweepEvery: 1 });
    try {
      await storage.rateLimits.take("idle", 5, 50);
      await storage.rateLimits.take("busy", 5, 60_000);
      const keys = async () =>
        (await pool.query<{ limit_key: string }>("select limit_key from rate_limits order by limit_key")).rows.map((row) => row.limit_key);
      expect(await keys()).toEqual(["5/50/idle", "5/60000/busy"]);
      await waitFor(
        async () => {
          await storage.rateLimits.take("busy", 1_000, 60_000);
          return !(await keys()).includes("5/50/idle");
        },
        { what: "the idle key to be swept", timeoutMs: 5_000, intervalMs: 20 },
      );
      expect(await keys()).toContain("5/60000/busy");
    } finally {
      await storage.close();
      await pool.end();
    }
  });
});
