/**
 * Every `invalidReason` (verify) and `errorReason` (settle) the svc-zerc20 parties use. Clients, logs and
 * dashboards key on these strings, so a code is never renamed and never reused for a different meaning: a new
 * condition gets a new code. A failed check is data (`{ isValid: false, invalidReason }`), not an exception.
 */

/** Payment acceptance is disabled: the facilitator runs under a profile other than `local`. */
export const PROFILE_UNSUPPORTED = "profile_unsupported";

/** The permit burn was broadcast but is still unmined at the polling bound; re-send the same payload. */
export const PENDING_BURN = "pending_burn";

/** The body or payload fails the wire shape, including a partial permit triple. */
export const MALFORMED_PAYLOAD = "malformed_payload";

/** No challenge with this `challengeNonce` was issued (or it is long gone). */
export const UNKNOWN_CHALLENGE = "unknown_challenge";

/** The challenge exists but its `expiresAt` has passed. */
export const CHALLENGE_EXPIRED = "challenge_expired";

/** `network`, `asset`, `payTo`, `amount` or `extra.challengeNonce` differ from the challenge record. */
export const REQUIREMENTS_MISMATCH = "requirements_mismatch";

/** The EIP-2612 permit signature does not recover to `payer`. */
export const INVALID_PERMIT_SIGNATURE = "invalid_permit_signature";

/** The EIP-712 BurnAuthorization signature does not recover to `payer`. */
export const INVALID_BURN_AUTHORIZATION = "invalid_burn_authorization";

/** `permit.nonce` is not the payer's live token nonce. */
export const STALE_PERMIT_NONCE = "stale_permit_nonce";

/** The signatures' deadline has passed, or is too close for a relayed burn to land before it. */
export const DEADLINE_PASSED = "deadline_passed";

/** `permit.value` is not exactly the quoted `amount`. */
export const PERMIT_VALUE_MISMATCH = "permit_value_mismatch";

/** The payer's token balance does not cover the quoted `amount`. */
export const INSUFFICIENT_BALANCE = "insufficient_balance";

/** No receipt exists for `burnTxHash` (unknown or not yet mined). */
export const BURN_RECEIPT_MISSING = "burn_receipt_missing";

/** The burn transaction's receipt reports failure. */
export const BURN_REVERTED = "burn_reverted";

/** The burn has no IndexedTransfer of at least `amount` to `payTo` on the offered token. */
export const TRANSFER_BELOW_AMOUNT = "transfer_below_amount";

/** The burn was included on-chain after the offer expired; refused on every path, recovery is manual. */
export const BURN_AFTER_EXPIRY = "burn_after_expiry";

/** This burn transaction already paid another challenge. */
export const BURN_TX_REUSED = "burn_tx_reused";

/** The challenge is already settled, or being settled, with a different payload. */
export const PAYLOAD_CONFLICT = "payload_conflict";

/** The requirements name a scheme other than svc-zerc20. */
export const UNSUPPORTED_SCHEME = "unsupported_scheme";

/** The requirements name a network this facilitator does not serve. */
export const UNSUPPORTED_NETWORK = "unsupported_network";

/** A permit payload reached a facilitator without a PermitBurner, or for an offer without `extra.helper`. */
export const PERMIT_PATH_UNAVAILABLE = "permit_path_unavailable";

/** The burn address does not hold the transferred funds any more. */
export const BURN_BALANCE_MISSING = "burn_balance_missing";

/** The chain RPC could not be reached or answered inconsistently; the check may succeed on a later try. */
export const CHAIN_UNAVAILABLE = "chain_unavailable";

/** The payment's history intent could not be recorded, so nothing was burned; the same payload may be re-sent. */
export const INTENT_NOT_RECORDED = "intent_not_recorded";

/** The facilitator could not broadcast the permit burn (for example it would revert); nothing was burned. */
export const RELAY_FAILED = "relay_failed";

/**
 * The shared database (`[storage]`) stopped answering during the check or settle; nothing was accepted that
 * could be lost. A permit burn may already be out: re-send the same payload once the facilitator is ready.
 */
export const STORAGE_UNAVAILABLE = "storage_unavailable";

/** Every reason code, for exhaustive checks and documentation. */
export const REASON_CODES = [
  PROFILE_UNSUPPORTED,
  PENDING_BURN,
  MALFORMED_PAYLOAD,
  UNKNOWN_CHALLENGE,
  CHALLENGE_EXPIRED,
  REQUIREMENTS_MISMATCH,
  INVALID_PERMIT_SIGNATURE,
  INVALID_BURN_AUTHORIZATION,
  STALE_PERMIT_NONCE,
  DEADLINE_PASSED,
  PERMIT_VALUE_MISMATCH,
  INSUFFICIENT_BALANCE,
  BURN_RECEIPT_MISSING,
  BURN_REVERTED,
  TRANSFER_BELOW_AMOUNT,
  BURN_AFTER_EXPIRY,
  BURN_TX_REUSED,
  PAYLOAD_CONFLICT,
  UNSUPPORTED_SCHEME,
  UNSUPPORTED_NETWORK,
  PERMIT_PATH_UNAVAILABLE,
  BURN_BALANCE_MISSING,
  CHAIN_UNAVAILABLE,
  INTENT_NOT_RECORDED,
  RELAY_FAILED,
  STORAGE_UNAVAILABLE,
] as const;

/** One of the svc-zerc20 reason codes. */
export type ReasonCode = (typeof REASON_CODES)[number];

/** True when a string is one of our reason codes (a response may also carry codes from the x402 middleware). */
export function isReasonCode(value: string): value is ReasonCode {
  return REASON_CODES.some((code) => code === value);
}
