/**
 * Reason codes the resource-server plugin itself returns as a verify `invalidReason` (the paying client sees
 * them in the 402's `error`). Like the facilitator's codes they are never renamed or reused; the facilitator
 * never sends them.
 */

/**
 * Another request carrying the same payment was being verified and settled, and it did not succeed; the
 * payment is not consumed, so the client may re-send it.
 */
export const CONCURRENT_PAYMENT_FAILED = "concurrent_payment_failed";
