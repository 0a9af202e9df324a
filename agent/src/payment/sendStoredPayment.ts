import { PAYMENT_SIGNATURE_HEADER } from "@svc/scheme";

import { BINARY_NAME } from "../commands/binaryName.js";
import { describeError } from "../errors/describeError.js";
import { HostNotAllowedError, HttpRequestFailedError } from "../http/errors.js";
import { fetchWithPolicy, type PolicyResponse } from "../http/fetchWithPolicy.js";
import type { Ledger } from "../ledger/ledger.js";
import type { LedgerEntry } from "../ledger/ledgerEntry.js";
import type { Policy } from "../policy/policy.js";
import { classifyPaidResponse } from "./classifyPaidResponse.js";
import { outcomeOffer } from "./outcomeOffer.js";
import type { OnPayEvent } from "./payEvent.js";
import type { PayOutcome } from "./payOutcome.js";
import { toResourceResponse } from "./resourceResponse.js";

/** Inputs to `sendStoredPayment`. */
export type SendStoredPaymentParameters = {
  /** A `signed` or `unknown` entry holding its `paymentHeader`. */
  entry: LedgerEntry & { paymentHeader: string };
  policy: Policy;
  ledger: Ledger;
  onEvent?: OnPayEvent | undefined;
  /** True for `resend`: an earlier attempt may have settled, so no answer can release the spend. */
  resend?: boolean | undefined;
};

/**
 * Sends the stored `PAYMENT-SIGNATURE` bytes once to the entry's URL (no redirects: a signed payment is never
 * carried to a host that did not make the offer), reads the answer and records it. Never retries. A definite
 * refusal releases a permit payment's spend, but keeps a self-transfer's (its burn is on-chain) and never
 * downgrades an `unknown` entry: an earlier attempt may have settled.
 */
export async function sendStoredPayment(parameters: SendStoredPaymentParameters): Promise<PayOutcome> {
  const { entry, policy, ledger, onEvent } = parameters;
  const id = entry.id;
  const offer = outcomeOffer(entry);
  const wasUnknown = parameters.resend === true || entry.status === "unknown";
  const keepsSpend = wasUnknown || entry.mode === "self-transfer";
  onEvent?.({ type: "phase", id, phase: "verifying" });

  let response: PolicyResponse;
  try {
    response = await fetchWithPolicy({
      url: new URL(entry.url),
      allowedHosts: policy.allowedHosts,
      timeoutMs: policy.timeoutMs,
      method: entry.request?.method,
      body: entry.request?.body,
      // The stored payment goes last, so no header given with the request can stand in for it.
      headers: { ...withoutPaymentHeaders(entry.request?.headers), [PAYMENT_SIGNATURE_HEADER]: entry.paymentHeader },
      maxRedirects: 0,
    });
  } catch (error) {
    if (error instanceof HostNotAllowedError) {
      return { kind: "declined", reason: "host_not_allowed", id, offer, message: `${error.shortMessage} Payment ${id} stays ${entry.status}.` };
    }
    const neverSent = error instanceof HttpRequestFailedError && !error.mayHaveBeenSent;
    const shortMessage = describeError(error);
    if (neverSent && !keepsSpend) {
      await ledger.recordOutcome(id, { status: "released", message: `not delivered: ${shortMessage}` });
      return { kind: "failed", id, offer, message: `${shortMessage} The payment was not delivered; nothing was paid.` };
    }
    const message = neverSent
      ? `${shortMessage} The payment was not delivered, but ${wasUnknown ? "an earlier attempt may have been" : "its burn is on-chain"}; run \`${BINARY_NAME} resend ${id}\` before the offer expires.`
      : `${shortMessage} The payment may have gone through; run \`${BINARY_NAME} resend ${id}\` to re-send the same payment.`;
    await ledger.recordOutcome(id, { status: "unknown", message });
    return { kind: "unknown", id, offer, message };
  }

  const verdict = classifyPaidResponse(response);
  if (verdict.kind === "paid") {
    await ledger.recordOutcome(id, { status: "settled", transaction: verdict.settle.transaction || undefined });
    onEvent?.({ type: "phase", id, phase: "settled" });
    return { kind: "paid", id, offer, transaction: verdict.settle.transaction || undefined, resource: toResourceResponse(response) };
  }
  if (verdict.kind === "refused" && !wasUnknown) {
    const status = keepsSpend ? "failed" : "released";
    const message =
      status === "failed"
        ? `${verdict.message}; the burn ${entry.burnTxHash ?? ""} is on-chain and is not refunded automatically`
        : `${verdict.message}; nothing was paid`;
    await ledger.recordOutcome(id, { status, errorReason: verdict.errorReason, message });
    return { kind: "failed", id, offer, errorReason: verdict.errorReason, message, resource: toResourceResponse(response) };
  }
  const message =
    verdict.kind === "refused"
      ? `${verdict.message}; an earlier attempt may still have settled, so payment ${id} stays unknown and its spend reserved`
      : `${verdict.message}; run \`${BINARY_NAME} resend ${id}\` to re-send the same payment`;
  await ledger.recordOutcome(id, { status: "unknown", errorReason: verdict.errorReason, message });
  return { kind: "unknown", id, offer, errorReason: verdict.errorReason, message };
}

/** Request headers without any x402 payment header of their own (matched without regard to case). */
function withoutPaymentHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers ?? {}).filter(([name]) => name.toLowerCase() !== PAYMENT_SIGNATURE_HEADER.toLowerCase() && name.toLowerCase() !== "x-payment"),
  );
}
