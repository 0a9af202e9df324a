import { type PaymentMode, SELF_TRANSFER_MIN_SECONDS_LEFT } from "@svc/scheme";

/**
 * The last moment (unix milliseconds) at which an offer expiring at `expiresAt` (unix seconds) can still be
 * paid in `mode`: self-transfer keeps `SELF_TRANSFER_MIN_SECONDS_LEFT` for its burn to be mined, and the
 * policy counts whole seconds left, so one more second goes. An approval never waits past this moment.
 */
export function offerUsableUntil(mode: PaymentMode, expiresAt: number): number {
  const margin = mode === "self-transfer" ? SELF_TRANSFER_MIN_SECONDS_LEFT : 0;
  return (expiresAt - margin - 1) * 1000;
}
