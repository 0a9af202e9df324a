/**
 * The intent policy: the one rule payment history imposes on settlement (spec, History lifecycle). A payment
 * is never accepted without its required intent. Settlement writes the intent through {@link requireIntent}
 * before the step that cannot be taken back (relaying a permit burn; accepting an observed self-transfer
 * burn). When the write fails the settle is refused with `intent_not_recorded` and nothing is consumed: no
 * relay is sent, no journal record is written, the challenge stays open and its claim is released when the
 * settle ends, so the payer re-sends the same payload once history is writable. Without history configured
 * (`noHistory`) every intent counts as recorded.
 */
import { INTENT_NOT_RECORDED } from "@svc/scheme";

import type { Logger } from "../../log/createLogger.js";
import type { HistoryPayment, HistoryRecorder } from "./historyRecorder.js";

/** The reason a settle is refused with when its intent cannot be written. */
export const INTENT_REFUSAL = INTENT_NOT_RECORDED;

/** The intent is durable and the settle may go on, or the settle is refused with {@link INTENT_REFUSAL}. */
export type IntentOutcome = { recorded: true } | { recorded: false; refusal: typeof INTENT_REFUSAL };

/**
 * Writes the intent of `payment` under the intent policy. A failed write is logged as
 * `history_intent_failed` (the error's name only) and answered as a refusal, never thrown.
 *
 * @example
 * const intent = await requireIntent(deps.history, payment, logger);
 * if (!intent.recorded) return failure(intent.refusal);
 */
export async function requireIntent(recorder: HistoryRecorder, payment: HistoryPayment, logger: Logger): Promise<IntentOutcome> {
  try {
    await recorder.recordIntent(payment);
    return { recorded: true };
  } catch (error) {
    logger.warn("history_intent_failed", { challenge_nonce: payment.challengeNonce, error: error instanceof Error ? error.name : "unknown" });
    return { recorded: false, refusal: INTENT_REFUSAL };
  }
}
