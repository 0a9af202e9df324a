/**
 * Seconds before `extra.expiresAt` inside which a self-transfer burn is not started: a burn mined after the
 * offer expired is refused on every path and the tokens are lost, so the payer keeps room for slow blocks.
 */
export const SELF_TRANSFER_MIN_SECONDS_LEFT = 30;
