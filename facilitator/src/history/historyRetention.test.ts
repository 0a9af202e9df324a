/**
 * `history.retention_days`: which payments a retention lets go, and that the file and the PostgreSQL history
 * both keep exactly the rest across a restart. Unset (the default) keeps everything, as the specification's
 * history does.
 */
import { readFile } from "node:fs/promises";
import { waitFor } from "@svc/anvil-fixtures";
import { startPostgres, type RunningPostgres } from "@svc/anvil-fixtures/postgres";
import { afterAll, afterEach, describe, expect, it } from "vitest";

import { createLogger } from "../log/createLogger.js";
import { openPostgresStorage } from "../storage/openPostgresStorage.js";
import { migratePostgres } from "../storage/postgresMigrations.js";
import { openTestPool } from "../testing/openTestPool.js";
import { openHistory } from "./openHistory.js";
import type { HistoryRecord } from "./record/historyRecord.js";
import { openPaymentHistory } from "./record/openPaymentHistory.js";
import { paymentHistoryFileStore } from "./record/paymentHistoryFileStore.js";
import { PaymentHistoryBook } from "./record/paymentHistoryBook.js";
import { createHistoryTestEnvironment, type HistoryTestEnvironment, TEST_BINDINGS, TEST_RECIPIENT } from "./testing/historyTestEnvironment.js";

const NOW = 2_000_000_000;
const DAY = 86_400;
const RETENTION = 30 * DAY;
const OLD = NOW - RETENTION - DAY;
const RECENT = NOW - DAY;

/** The shared history keeps no file: the path it is opened with is not used. */
const UNUSED_PATH = "/nonexistent/payment-history.jsonl";

const id = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as const;
const tx = (n: number) => `0x${(n + 0x1000).toString(16).padStart(64, "0")}` as const;

function intent(n: number, at: number): HistoryRecord {
  return {
    v: 1,
    type: "intent",
    paymentId: id(n),
    at,
    path: "permit",
    network: "eip155:31337",
    asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    payTo: "0x1111111111111111111111111111111111111111",
    amount: "1000",
    recipient: TEST_RECIPIENT,
    bindings: { payer: { ...TEST_BINDINGS.payer }, provider: { ...TEST_BINDINGS.provider } },
    salt: n.toString(16).padStart(64, "0"),
  };
}
const accepted = (n: number, at: number): HistoryRecord => ({
  v: 1,
  type: "accepted",
  paymentId: id(n),
  at,
  burnTxHash: tx(n),
  payer: "0x2222222222222222222222222222222222222222",
});
const finalized = (n: number, at: number): HistoryRecord => ({ v: 1, type: "finalized", paymentId: id(n), at, mintTxHash: tx(n + 100) });
const proof = (n: number, expiresAt: number): HistoryRecord => ({
  v: 1,
  type: "proof_issued",
  paymentId: id(n),
  at: OLD,
  proofId: n.toString(16).padStart(32, "0"),
  proofDigest: "ab".repeat(32),
  keyId: "key-1",
  expiresAt,
  issuedBy: { subject: "payer", ...TEST_BINDINGS.payer },
});

/** 1 finalized long ago: goes. 2 accepted long ago, not minted: stays. 3 finalized long ago with a proof still valid: stays.
 * 4 finalized yesterday: stays. 5 an intent long ago that was never accepted: goes. 6 finalized long ago, its proof expired: goes. */
const STORED: HistoryRecord[] = [
  intent(1, OLD),
  accepted(1, OLD),
  finalized(1, OLD),
  intent(2, OLD),
  accepted(2, OLD),
  intent(3, OLD),
  accepted(3, OLD),
  finalized(3, OLD),
  proof(3, NOW + DAY),
  intent(4, RECENT),
  accepted(4, RECENT),
  finalized(4, RECENT),
  intent(5, OLD),
  intent(6, OLD),
  accepted(6, OLD),
  finalized(6, OLD),
  proof(6, NOW - 1),
];
const GONE = [id(1), id(5), id(6)];
const KEPT = [id(2), id(3), id(4)];

function bookOf(records: readonly HistoryRecord[]): PaymentHistoryBook {
  const book = new PaymentHistoryBook();
  for (const record of records) book.apply(record);
  return book;
}

const cleanups: (() => Promise<unknown>)[] = [];
let server: RunningPostgres | undefined;
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await server?.stop();
});

async function environment(): Promise<HistoryTestEnvironment> {
  const created = await createHistoryTestEnvironment({ proofs: false });
  cleanups.push(created.close);
  return created;
}

describe("PaymentHistoryBook under a retention", () => {
  it("lets go of closed payments past it whose proofs expired, never of one still being minted", () => {
    const book = bookOf(STORED);
    expect(book.expired(NOW, RETENTION).sort()).toEqual(GONE);
    expect(bookOf(STORED).expired(NOW, 10 * 365 * DAY)).toEqual([]);
  });

  it("writes records that fold back into the same book", () => {
    const book = bookOf(STORED);
    const again = bookOf(book.records());
    expect(again.entries()).toEqual(book.entries());
    expect(again.proof("3".padStart(32, "0"))).toEqual(proof(3, NOW + DAY));
    expect(again.records()).toEqual(book.records());
  });
});

describe("history retention", () => {
  it("rewrites the file without the expired payments; a restart folds exactly the rest", async () => {
    const env = await environment();
    const history = await openPaymentHistory(env.files.history);
    for (const record of STORED) await history.append(record);
    const before = bookOf(STORED);

    expect(await history.prune(NOW, RETENTION)).toBe(GONE.length);
    expect(await history.prune(NOW, RETENTION)).toBe(0);
    await history.close();

    const text = await readFile(env.files.history, "utf8");
    for (const gone of GONE) expect(text).not.toContain(gone);
    const reopened = await openPaymentHistory(env.files.history);
    cleanups.push(reopened.close);
    await reopened.loaded;
    expect(reopened.book.entries().map((entry) => entry.paymentId)).toEqual(KEPT);
    expect(reopened.book.entries()).toEqual(before.entries().filter((entry) => KEPT.includes(entry.paymentId)));
    expect(reopened.book.proof("3".padStart(32, "0"))).toEqual(proof(3, NOW + DAY));
    expect(reopened.book.proof("6".padStart(32, "0"))).toBeUndefined();
  });

  it("is applied by the daemon's history once loaded, and logged", async () => {
    const env = await environment();
    const seeded = await openPaymentHistory(env.files.history);
    for (const record of STORED) await seeded.append(record);
    await seeded.close();

    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({ write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const opened = await openHistory({
      env: env.env,
      recipient: TEST_RECIPIENT,
      logger,
      store: paymentHistoryFileStore,
      retentionSeconds: RETENTION,
      options: { now: () => NOW * 1000 },
    });
    if (opened === undefined) throw new Error("history is on");
    cleanups.push(opened.close);
    const pruned = await waitFor(() => lines.find((line) => line.event === "history_pruned"), {
      what: "the history_pruned line",
      timeoutMs: 10_000,
      intervalMs: 20,
    });
    expect(pruned).toMatchObject({ payments: GONE.length, retention_days: 30 });
    const listed = await opened.service.listPayments({ subject: "payer", ...TEST_BINDINGS.payer });
    expect(listed.map((payment) => payment.paymentId)).toEqual(KEPT);
  });

  it("deletes the expired payments' rows from PostgreSQL, for every instance that opens it next", async () => {
    server ??= await startPostgres();
    const url = await server.createDatabase();
    const pool = openTestPool(url);
    cleanups.push(() => pool.end());
    await migratePostgres(pool);
    const storage = await openPostgresStorage({ url });
    cleanups.push(() => storage.close());
    const history = (await storage.history.open(UNUSED_PATH, { foregroundBytes: 0 })).history;
    cleanups.push(history.close);
    for (const record of STORED) await history.append(record);

    expect(await history.prune(NOW, RETENTION)).toBe(GONE.length);
    const { rows } = await pool.query<{ payment_id: string }>("select distinct payment_id from history_records order by payment_id");
    expect(rows.map((row) => row.payment_id)).toEqual(KEPT);
    const next = (await storage.history.open(UNUSED_PATH, { foregroundBytes: 0 })).history;
    cleanups.push(next.close);
    await next.loaded;
    expect(next.book.entries().map((entry) => entry.paymentId)).toEqual(KEPT);
  });
});
