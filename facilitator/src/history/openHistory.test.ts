import { writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";

import { createLogger } from "../log/createLogger.js";
import { type OpenedHistory, openHistory } from "./openHistory.js";
import { paymentHistoryFileStore } from "./record/paymentHistoryFileStore.js";
import {
  buildHistoryPayment,
  createHistoryTestEnvironment,
  type HistoryTestEnvironment,
  TEST_BINDINGS,
  TEST_RECIPIENT,
} from "./testing/historyTestEnvironment.js";

let environment: HistoryTestEnvironment | undefined;
let opened: OpenedHistory | undefined;

afterEach(async () => {
  await opened?.close();
  opened = undefined;
  await environment?.close();
  environment = undefined;
});

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createLogger({ write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) }) };
}

/** What the daemon passes as `loadAfter`: a promise the test resolves when "the daemon is up". */
function daemonUp() {
  let resolve: () => void = () => undefined;
  const up = new Promise<void>((done) => {
    resolve = done;
  });
  return { up, resolve: () => resolve() };
}

const payer = { subject: "payer", ...TEST_BINDINGS.payer } as const;

describe("openHistory with a history larger than startup folds", () => {
  it("starts without it, folds it once the daemon is up, and makes reads and writes wait for the fold", async () => {
    environment = await createHistoryTestEnvironment({ proofs: false });
    const stored = buildHistoryPayment();
    const first = await openHistory({ env: environment.env, recipient: TEST_RECIPIENT, logger: capturedLogger().logger, store: paymentHistoryFileStore });
    await first?.recorder.recordIntent(stored);
    await first?.close();

    const { lines, logger } = capturedLogger();
    const daemon = daemonUp();
    opened = await openHistory({
      env: environment.env,
      recipient: TEST_RECIPIENT,
      logger,
      store: paymentHistoryFileStore,
      loadAfter: daemon.up,
      options: { foregroundBytes: 0 },
    });
    expect(opened?.loading).toBeInstanceOf(Promise);
    expect(lines.map((line) => line.event)).toContain("history_loading");
    expect(lines.map((line) => line.event)).not.toContain("history_loaded");

    const service = opened?.service;
    if (service === undefined) throw new Error("history is on");
    const listed = service.listPayments(payer);
    const fresh = buildHistoryPayment({ challengeNonce: `0x${"c2".repeat(32)}` });
    const recorded = opened?.recorder.recordIntent(fresh);
    // Neither the read nor the write may finish on a half-read history.
    const early = await Promise.race([listed.then(() => "answered"), recorded?.then(() => "written"), Promise.resolve("waiting")]);
    expect(early).toBe("waiting");

    daemon.resolve();
    await opened?.loading;
    await recorded;
    expect((await listed).map((payment) => payment.paymentId)).toContain(stored.challengeNonce.toLowerCase());
    expect((await service.listPayments(payer)).map((payment) => payment.paymentId)).toEqual(
      [stored, fresh].map((payment) => payment.challengeNonce.toLowerCase()),
    );
    expect(lines.find((line) => line.event === "history_loaded")).toMatchObject({ records: 1 });
    // The file is this process's own history: only the shared one says so.
    expect(lines.find((line) => line.event === "history_enabled")).not.toHaveProperty("storage");
  });

  it("fails startup on a damaged record in a small file, and leaves history unavailable (503) on one found in the background", async () => {
    environment = await createHistoryTestEnvironment({ proofs: false });
    await writeFile(environment.files.history, '{"v":1,"type":"nonsense"}\n');
    await expect(
      openHistory({ env: environment.env, recipient: TEST_RECIPIENT, logger: capturedLogger().logger, store: paymentHistoryFileStore }),
    ).rejects.toMatchObject({
      name: "PaymentHistoryFileError",
    });

    const { lines, logger } = capturedLogger();
    const daemon = daemonUp();
    opened = await openHistory({
      env: environment.env,
      recipient: TEST_RECIPIENT,
      logger,
      store: paymentHistoryFileStore,
      loadAfter: daemon.up,
      options: { foregroundBytes: 0 },
    });
    daemon.resolve();
    await opened?.loading;
    expect(lines.find((line) => line.event === "history_unavailable")).toMatchObject({ level: "error", error: "PaymentHistoryFileError" });
    await expect(opened?.service.listPayments(payer)).rejects.toMatchObject({ name: "HistoryUnavailableError", status: 503 });
    await expect(opened?.recorder.recordIntent(buildHistoryPayment())).rejects.toMatchObject({ name: "HistoryWriteError" });
  });

  it("closes at once when the daemon stops before it was up: the fold never starts", async () => {
    environment = await createHistoryTestEnvironment({ proofs: false });
    await writeFile(environment.files.history, '{"v":1,"type":"nonsense"}\n');
    const { lines, logger } = capturedLogger();
    const never = new Promise<void>(() => undefined);
    const unopened = await openHistory({
      env: environment.env,
      recipient: TEST_RECIPIENT,
      logger,
      store: paymentHistoryFileStore,
      loadAfter: never,
      options: { foregroundBytes: 0 },
    });
    await unopened?.close();
    await unopened?.loading;
    // The damaged record was never read: nothing reports it.
    expect(lines.map((line) => line.event)).not.toContain("history_unavailable");
  });
});
