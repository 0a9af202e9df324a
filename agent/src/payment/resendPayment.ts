import { BaseError } from "@svc/scheme";

import { BINARY_NAME } from "../commands/binaryName.js";
import type { Ledger } from "../ledger/ledger.js";
import { getPayment } from "../ledger/paymentId.js";
import type { Policy } from "../policy/policy.js";
import type { OnPayEvent } from "./payEvent.js";
import type { PayOutcome } from "./payOutcome.js";
import { sendStoredPayment } from "./sendStoredPayment.js";

/** Thrown by `resend` for a payment whose offer has expired: a new purchase needs a fresh 402. */
export class OfferExpiredError extends BaseError {
  override name = "OfferExpiredError";
  constructor({ id, expiresAt, status, url }: { id: string; expiresAt: number; status: string; url: string }) {
    super(
      `The offer of payment ${id} expired at ${new Date(expiresAt * 1000).toISOString()}; it cannot be re-sent. A new purchase needs a fresh 402: run \`${BINARY_NAME} pay ${url}\` again once you have checked that payment ${id} (${status}) did not go through.`,
    );
  }
}

/** Thrown by `resend` for a payment with nothing to re-send (never signed, or already settled or closed). */
export class NothingToResendError extends BaseError {
  override name = "NothingToResendError";
  constructor({ id, status }: { id: string; status: string }) {
    super(`Payment ${id} is ${status}; only a signed payment of unknown outcome can be re-sent.`);
  }
}

/**
 * Re-sends a stored payment after a timeout or lost answer: exactly the stored `PAYMENT-SIGNATURE` bytes to
 * the same URL, once. Nothing is signed or burned again. Refuses (`OfferExpiredError`) once the offer has
 * expired, and (`NothingToResendError`) for entries that are not `signed` or `unknown` with a stored header.
 *
 * @example
 * const outcome = await resendPayment({ id: "3f9a0c1b2d4e", policy, ledger }); // or the facilitator's 0x… payment id
 */
export async function resendPayment(parameters: {
  id: string;
  policy: Policy;
  ledger: Ledger;
  onEvent?: OnPayEvent | undefined;
  now?: (() => number) | undefined;
}): Promise<PayOutcome> {
  const { id, policy, ledger } = parameters;
  const now = parameters.now ?? Date.now;
  const entry = getPayment(await ledger.entries(), id);
  const { paymentHeader } = entry;
  if ((entry.status !== "signed" && entry.status !== "unknown") || paymentHeader === undefined) {
    throw new NothingToResendError({ id: entry.id, status: entry.status });
  }
  if (entry.expiresAt * 1000 <= now()) throw new OfferExpiredError({ id: entry.id, expiresAt: entry.expiresAt, status: entry.status, url: entry.url });
  return sendStoredPayment({ entry: { ...entry, paymentHeader }, policy, ledger, onEvent: parameters.onEvent, resend: true });
}
