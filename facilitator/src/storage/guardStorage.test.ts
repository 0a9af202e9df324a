/**
 * The PostgreSQL adapter's ports on a database nobody answers for reject with `StorageUnavailableError` (the
 * HTTP layer's `storage_unavailable`), and only a connection failure is classified that way: a statement the
 * server refused stays the driver's error.
 */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StorageUnavailableError } from "./errors.js";
import { isStorageConnectionFailure } from "./guardStorage.js";
import { createPostgresStorage } from "./openPostgresStorage.js";
import type { FacilitatorStorage } from "./storagePorts.js";

const NONCE = `0x${"ab".repeat(32)}` as const;
const PASSWORD = "outage-test-password";
let storage: FacilitatorStorage;

beforeAll(async () => {
  // A port that was free a moment ago: every connection to it is refused.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const pool = new pg.Pool({ connectionString: `postgres://svc:${PASSWORD}@127.0.0.1:${port}/svc`, max: 2 });
  pool.on("error", () => undefined);
  const lockPool = new pg.Pool({ connectionString: `postgres://svc:${PASSWORD}@127.0.0.1:${port}/svc`, max: 1 });
  lockPool.on("error", () => undefined);
  storage = createPostgresStorage(pool, { lockPool });
});

afterAll(async () => {
  await storage?.close();
});

describe("guardStorage", () => {
  it("rejects every kind of port call on an unreachable database with StorageUnavailableError, naming no credential", async () => {
    const calls: (() => Promise<unknown>)[] = [
      () => storage.challenges.get(NONCE),
      () => storage.journal.readSince(),
      () => storage.journal.append({ type: "intent_released", challengeNonce: NONCE, reason: "relay_failed", at: 1 } as never),
      () => storage.settleClaims.claim(NONCE, "a", 1_000),
      () => storage.finalizeQueue.lease("a", 1, 1_000),
      () => storage.rateLimits.take("k", 1, 60_000),
      () =>
        storage.relayNonces.withNextNonce(
          31337,
          `0x${"11".repeat(20)}`,
          async () => 0,
          async () => "sent",
        ),
      () => storage.ping(),
      // The shared history's log is guarded inside the adapter: its first read fails the same way.
      async () => (await storage.history.open("unused", { foregroundBytes: 0 })).history.loaded,
    ];
    for (const call of calls) {
      const error = await call().then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(StorageUnavailableError);
      expect((error as Error).message).not.toContain(PASSWORD);
    }
  });

  it("classifies connection failures only", () => {
    const serverError = (code: string) => Object.assign(new pg.DatabaseError("server said no", 0, "error"), { code });
    expect(isStorageConnectionFailure(serverError("57P01"))).toBe(true);
    expect(isStorageConnectionFailure(serverError("08006"))).toBe(true);
    expect(isStorageConnectionFailure(serverError("53300"))).toBe(true);
    expect(isStorageConnectionFailure(serverError("23505"))).toBe(false);
    expect(isStorageConnectionFailure(serverError("40001"))).toBe(false);
    expect(isStorageConnectionFailure(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isStorageConnectionFailure(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isStorageConnectionFailure(new TypeError("fetch failed"))).toBe(false);
    expect(isStorageConnectionFailure("ECONNREFUSED")).toBe(false);
  });
});
