/**
 * Payment history with `[storage]`: two storages on one PostgreSQL database stand for two facilitator
 * instances. What one records (intent, accepted, a proof) is seen by the other's reads, and neither writes
 * the `PAYMENT_HISTORY_PATH` file.
 */
import { access } from "node:fs/promises";
import { startPostgres, type RunningPostgres } from "@svc/anvil-fixtures/postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { buildMemoryLogger } from "../http/testing/buildAppDependencies.js";
import { openPostgresStorage } from "../storage/openPostgresStorage.js";
import { migratePostgres } from "../storage/postgresMigrations.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";
import { openTestPool } from "../testing/openTestPool.js";
import { openHistory, type OpenedHistory } from "./openHistory.js";
import type { HistoryIdentity } from "./participantBinding.js";
import {
  buildHistoryPayment,
  createHistoryTestEnvironment,
  type HistoryTestEnvironment,
  TEST_BINDINGS,
  TEST_MINT_TX,
  TEST_RECIPIENT,
} from "./testing/historyTestEnvironment.js";

const BURN_TX = `0x${"b0".repeat(32)}` as const;
const PAYER: HistoryIdentity = { subject: "payer", ...TEST_BINDINGS.payer };

let server: RunningPostgres;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  server = await startPostgres();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await server?.stop();
});

/** Two instances' history over one database, with the proof group configured. */
async function twoInstances(): Promise<{ a: OpenedHistory; b: OpenedHistory; environment: HistoryTestEnvironment; logs: string[] }> {
  const url = await server.createDatabase();
  const pool = openTestPool(url);
  await migratePostgres(pool);
  await pool.end();
  const environment = await createHistoryTestEnvironment({ proofs: true });
  cleanups.push(environment.close);
  const logs: string[] = [];
  const open = async (): Promise<OpenedHistory> => {
    const storage: FacilitatorStorage = await openPostgresStorage({ url });
    cleanups.push(() => storage.close());
    const { logger, lines } = buildMemoryLogger();
    const history = await openHistory({ env: environment.env, recipient: TEST_RECIPIENT, logger, store: storage.history });
    logs.push(...lines);
    if (history === undefined) throw new TypeError("history did not open");
    cleanups.push(history.close);
    return history;
  };
  return { a: await open(), b: await open(), environment, logs };
}

describe("payment history shared through PostgreSQL", () => {
  it("a payment recorded on one instance is listed, advanced and proven on the other", async () => {
    const { a, b, environment } = await twoInstances();
    const payment = buildHistoryPayment();
    const paymentId = payment.challengeNonce.toLowerCase();
    expect(await b.service.listPayments(PAYER)).toEqual([]);

    await a.recorder.recordIntent(payment);
    await a.recorder.recordAccepted({ ...payment, burnTxHash: BURN_TX });
    const listed = await b.service.listPayments(PAYER);
    expect(listed.map((view) => [view.paymentId, view.state])).toEqual([[paymentId, "accepted"]]);

    // The finalize loop of the other instance owns the mint: its recorder knows the intent A wrote.
    await b.recorder.recordFinalized({ challengeNonce: payment.challengeNonce, mintTxHash: TEST_MINT_TX });
    const seenByA = await a.service.getPayment(PAYER, paymentId);
    expect(seenByA.ok && seenByA.value.state).toBe("finalized");

    const issued = await b.service.proofs!.issue(PAYER, paymentId);
    if (!issued.ok) throw new TypeError(`issue refused: ${issued.message}`);
    const verified = await a.service.proofs!.verify(PAYER, issued.value.proofId);
    expect(verified.ok && verified.value.result).toBe("VALID_NOW");

    // A retried intent on the other instance writes nothing: it sees the record already there.
    await b.recorder.recordIntent(payment);
    expect((await a.service.listPayments(PAYER)).length).toBe(1);
    await expect(access(environment.files.history)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("says at start that the history is the shared one, folded in the background", async () => {
    const { logs } = await twoInstances();
    const events = logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.filter((event) => event.event === "history_loading")).toHaveLength(2);
    expect(events.filter((event) => event.event === "history_enabled")).toEqual([
      expect.objectContaining({ storage: "shared" }),
      expect.objectContaining({ storage: "shared" }),
    ]);
  });
});
