import { OfferExpiringError } from "./errors.js";
import type { Offer } from "../wire/offer.js";

/**
 * Throws `OfferExpiringError` unless more than `minimumSeconds` of the offer's life are left at `nowMs`. Zero
 * margin means "not yet expired"; a self-transfer asks for more because its burn still has to be mined.
 */
export function assertOfferLife(parameters: { offer: Pick<Offer, "expiresAt">; nowMs: number; minimumSeconds: number }): void {
  const { offer, nowMs, minimumSeconds } = parameters;
  const { expiresAt } = offer;
  const secondsLeft = Math.floor(expiresAt - nowMs / 1000);
  if (secondsLeft <= minimumSeconds) throw new OfferExpiringError({ expiresAt, secondsLeft, minimumSeconds });
}
