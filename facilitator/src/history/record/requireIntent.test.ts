import { afterEach, describe, expect, it } from "vitest";

import { openFoldedJsonlFile, type FoldedJsonlFile } from "../../journal/jsonlFile.js";
import { createLogger } from "../../log/createLogger.js";
import {
  buildHistoryPayment,
  createHistoryTestEnvironment,
  type HistoryTestEnvironment,
  TEST_BINDINGS,
  TEST_RECIPIENT,
} from "../testing/historyTestEnvironment.js";
import { createHistoryRecorder } from "./createHistoryRecorder.js";
import { noHistory } from "./historyRecorder.js";
import { openPaymentHistory, type PaymentHistory } from "./openPaymentHistory.js";
import { INTENT_REFUSAL, requireIntent } from "./requireIntent.js";

let environment: HistoryTestEnvironment | undefined;
let history: PaymentHistory | undefined;

afterEach(async () => {
  await history?.close();
  history = undefined;
  await environment?.close();
  environment = undefined;
});

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createLogger({ write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) }) };
}

describe("requireIntent (the intent policy)", () => {
  it("refuses with intent_not_recorded when the write fails, logs the error's name, and records on retry", async () => {
    environment = await createHistoryTestEnvironment({ proofs: false });
    const failing = { on: true };
    history = await openPaymentHistory(
      environment.files.history,
      async (path: string, fold: (value: unknown, lineNumber: number) => void): Promise<FoldedJsonlFile> => {
        const file = await openFoldedJsonlFile(path, fold);
        return { ...file, append: (value) => (failing.on ? Promise.reject(new Error("no space left on device")) : file.append(value)) };
      },
    );
    const recorder = createHistoryRecorder({ history, bindings: TEST_BINDINGS, recipient: TEST_RECIPIENT, now: () => 1_900_000_000 });
    const { lines, logger } = capturedLogger();
    const payment = buildHistoryPayment();

    expect(await requireIntent(recorder, payment, logger)).toEqual({ recorded: false, refusal: "intent_not_recorded" });
    expect(INTENT_REFUSAL).toBe("intent_not_recorded");
    expect(history.book.entry(payment.challengeNonce)).toBeUndefined();
    expect(lines).toMatchObject([{ event: "history_intent_failed", challenge_nonce: payment.challengeNonce, error: "HistoryWriteError" }]);
    expect(JSON.stringify(lines)).not.toContain("no space left");

    failing.on = false;
    expect(await requireIntent(recorder, payment, logger)).toEqual({ recorded: true });
    expect(history.book.entry(payment.challengeNonce)?.state).toBe("intent");
  });

  it("counts every intent as recorded without history", async () => {
    const { lines, logger } = capturedLogger();
    expect(await requireIntent(noHistory, buildHistoryPayment(), logger)).toEqual({ recorded: true });
    expect(lines).toEqual([]);
  });
});
