import { OfferExpiringError } from "./errors.js";
import type { PaymentRequirements } from "../wire/paymentRequirements.js";

/**
 * Throws `OfferExpiringError` unless more than `minimumSeconds` of the offer's life are left at `nowMs`. Zero
 * margin means "not yet expired"; a self-transfer asks for more because its burn still has to be mined.
 */
export function assertOfferLife(parameters: { requirements: PaymentRequirements; nowMs: number; minimumSeconds: number }): void {
  const { requirements, nowMs, minimumSeconds } = parameters;
  const { expiresAt } = requirements.extra;
  const secondsLeft = Math.floor(expiresAt - nowMs / 1000);
  if (secondsLeft <= minimumSeconds) throw new OfferExpiringError({ expiresAt, secondsLeft, minimumSeconds });
}
