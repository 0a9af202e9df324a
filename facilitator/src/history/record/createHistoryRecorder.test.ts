import { readFile, writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";

import { HistoryWriteError } from "../errors.js";
import { openFoldedJsonlFile, type FoldedJsonlFile } from "../../journal/jsonlFile.js";
import { createHistoryRecorder } from "./createHistoryRecorder.js";
import { openPaymentHistory, type PaymentHistory } from "./openPaymentHistory.js";
import {
  buildHistoryPayment,
  createHistoryTestEnvironment,
  type HistoryTestEnvironment,
  TEST_BINDINGS,
  TEST_MINT_TX,
  TEST_RECIPIENT,
} from "../testing/historyTestEnvironment.js";

const BURN_TX = `0x${"b0".repeat(32)}` as const;

let environment: HistoryTestEnvironment | undefined;
let history: PaymentHistory | undefined;

afterEach(async () => {
  await history?.close();
  history = undefined;
  await environment?.close();
  environment = undefined;
});

/** A history file whose appends fail while `failing.on` is set. */
function failingFile(failing: { on: boolean }) {
  return async (path: string, fold: (value: unknown, lineNumber: number) => void): Promise<FoldedJsonlFile> => {
    const file = await openFoldedJsonlFile(path, fold);
    return {
      ...file,
      append: (value) => (failing.on ? Promise.reject(Object.assign(new Error("no space left on device"), { code: "ENOSPC" })) : file.append(value)),
    };
  };
}

async function open(openFile?: Parameters<typeof openPaymentHistory>[1]) {
  environment ??= await createHistoryTestEnvironment({ proofs: false });
  const path = environment.files.history;
  history = await openPaymentHistory(path, openFile);
  return { history, recorder: createHistoryRecorder({ history, bindings: TEST_BINDINGS, recipient: TEST_RECIPIENT, now: () => 1_900_000_000 }) };
}

describe("createHistoryRecorder", () => {
  it("appends intent, accepted and finalized lines binding both participants, with a per-record salt", async () => {
    const { recorder } = await open();
    const path = environment?.files.history ?? "";
    const payment = buildHistoryPayment();
    await recorder.recordIntent(payment);
    await recorder.recordIntent(payment);
    await recorder.recordAccepted({ ...payment, burnTxHash: BURN_TX });
    await recorder.recordFinalized({ challengeNonce: payment.challengeNonce, mintTxHash: TEST_MINT_TX });
    await recorder.recordIntent(buildHistoryPayment({ challengeNonce: `0x${"c2".repeat(32)}` }));
    const lines = (await readFile(path, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.type)).toEqual(["intent", "accepted", "finalized", "intent"]);
    expect(lines[0]).toMatchObject({
      v: 1,
      paymentId: `0x${"c1".repeat(32)}`,
      amount: "1000",
      recipient: TEST_RECIPIENT,
      bindings: { payer: TEST_BINDINGS.payer, provider: TEST_BINDINGS.provider },
      salt: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(lines[0]?.salt).not.toBe(lines[3]?.salt);
    expect(history?.book.entry(payment.challengeNonce)).toMatchObject({ state: "finalized", burnTxHash: BURN_TX, mintTxHash: TEST_MINT_TX });
  });

  it("rejects the intent when the write fails, records nothing, and succeeds on retry", async () => {
    const failing = { on: true };
    const { recorder, history: opened } = await open(failingFile(failing));
    const payment = buildHistoryPayment();
    await expect(recorder.recordIntent(payment)).rejects.toBeInstanceOf(HistoryWriteError);
    expect(opened.book.entry(payment.challengeNonce)).toBeUndefined();
    failing.on = false;
    await recorder.recordIntent(payment);
    expect(opened.book.entry(payment.challengeNonce)?.state).toBe("intent");
  });

  it("refuses accepted and finalized lines for a payment without an intent", async () => {
    const { recorder } = await open();
    await expect(recorder.recordAccepted({ ...buildHistoryPayment(), burnTxHash: BURN_TX })).rejects.toBeInstanceOf(HistoryWriteError);
    await expect(recorder.recordFinalized({ challengeNonce: `0x${"c1".repeat(32)}`, mintTxHash: TEST_MINT_TX })).rejects.toBeInstanceOf(HistoryWriteError);
  });

  it("survives a restart with a torn last line and catches up from the settlement journal", async () => {
    const { recorder } = await open();
    const payment = buildHistoryPayment();
    await recorder.recordIntent(payment);
    await history?.close();
    const path = environment?.files.history ?? "";
    await writeFile(path, `${await readFile(path, "utf8")}{"v":1,"type":"acc`);
    const reopened = await open();
    expect((await history?.loaded)?.tornLine).toEqual({ lineNumber: 2, bytes: 18 });
    const written = await reopened.recorder.reconcile([
      {
        challenge: { challengeNonce: payment.challengeNonce },
        state: "finalized",
        burnTxHash: BURN_TX,
        payer: payment.payer,
        at: 1_900_000_001,
        mintTxHash: TEST_MINT_TX,
        finalizedAt: 1_900_000_100,
      },
      { challenge: { challengeNonce: `0x${"dd".repeat(32)}` }, state: "accepted", burnTxHash: BURN_TX, at: 1 },
    ]);
    expect(written).toBe(2);
    expect(history?.book.entry(payment.challengeNonce)).toMatchObject({ state: "finalized", acceptedAt: 1_900_000_001, finalizedAt: 1_900_000_100 });
    expect(history?.book.entry(`0x${"dd".repeat(32)}`)).toBeUndefined();
  });

  it("fails to open a history file with a line it does not understand", async () => {
    environment = await createHistoryTestEnvironment({ proofs: false });
    await writeFile(environment.files.history, '{"v":1,"type":"intent"}\n');
    const damaged = await openPaymentHistory(environment.files.history);
    await expect(damaged.loaded).rejects.toMatchObject({ name: "PaymentHistoryFileError" });
    // Every read and write then refuses by name instead of showing a half-read history.
    await expect(damaged.catchUp()).rejects.toMatchObject({ name: "HistoryUnavailableError", status: 503 });
    await damaged.close();
  });
});
