import {
  CHAIN_UNAVAILABLE,
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  isReasonCode,
  PAYMENT_REQUIRED_HEADER,
  PAYMENT_RESPONSE_HEADER,
  PENDING_BURN,
  type SettleResponse,
  STORAGE_UNAVAILABLE,
} from "@svc/scheme";

/** What the answer to a paid request says about the payment. */
export type PaidResponseVerdict =
  | { kind: "paid"; settle: SettleResponse }
  /** The provider definitely did not take the payment. */
  | { kind: "refused"; message: string; errorReason?: string | undefined }
  /** The payment may or may not have settled. */
  | { kind: "unknown"; message: string; errorReason?: string | undefined };

/** Settle failures after which the burn may still land: the spec says to re-send the same payload. */
const STILL_PENDING_REASONS: ReadonlySet<string> = new Set([PENDING_BURN, CHAIN_UNAVAILABLE, STORAGE_UNAVAILABLE]);

/**
 * Reads the answer to a request that carried `PAYMENT-SIGNATURE`. `PAYMENT-RESPONSE` decides when present:
 * success is paid; a failure with one of our reason codes is a refusal, except `pending_burn`,
 * `chain_unavailable` and `storage_unavailable`, and a failure we cannot interpret (a middleware message, a settle timeout) is
 * unknown. Without it, a 402 means the middleware refused before settling (no match, verify failed), a 500
 * means the handler failed and nothing was settled, and anything else is unknown.
 */
export function classifyPaidResponse(response: { status: number; headers: Headers }): PaidResponseVerdict {
  const settleHeader = response.headers.get(PAYMENT_RESPONSE_HEADER);
  if (settleHeader !== null) {
    let settle: SettleResponse;
    try {
      settle = decodePaymentResponseHeader(settleHeader);
    } catch {
      return { kind: "unknown", message: `HTTP ${response.status} with an unreadable ${PAYMENT_RESPONSE_HEADER} header` };
    }
    if (settle.success) return { kind: "paid", settle };
    const errorReason = settle.errorReason ?? settle.errorMessage;
    const shown = errorReason ?? "no reason given";
    if (errorReason !== undefined && isReasonCode(errorReason) && !STILL_PENDING_REASONS.has(errorReason)) {
      return { kind: "refused", errorReason, message: `the payment was refused: ${shown}` };
    }
    return { kind: "unknown", errorReason, message: `settlement did not complete: ${shown}` };
  }
  if (response.status === 402) {
    const reason = paymentRequiredError(response.headers);
    return { kind: "refused", errorReason: reason, message: `the provider refused the payment before settling${reason === undefined ? "" : `: ${reason}`}` };
  }
  if (response.status === 500) return { kind: "refused", message: "the provider failed (HTTP 500) and did not settle the payment" };
  return { kind: "unknown", message: `HTTP ${response.status} without a ${PAYMENT_RESPONSE_HEADER} header` };
}

function paymentRequiredError(headers: Headers): string | undefined {
  const header = headers.get(PAYMENT_REQUIRED_HEADER);
  if (header === null) return undefined;
  try {
    return decodePaymentRequiredHeader(header).error;
  } catch {
    return undefined;
  }
}
