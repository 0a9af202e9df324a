/**
 * Why the policy refused to pay, as stable snake_case codes: `--json` output carries them and scripts key
 * on them, so a code is never renamed or reused.
 */
export const DECLINE_REASONS = [
  "host_not_allowed",
  "no_scheme_offer",
  "network_not_allowed",
  "token_not_allowed",
  "above_max_per_payment",
  "above_max_total",
  "above_max_per_hour",
  "above_max_per_day",
  "above_max_per_week",
  "above_max_per_month",
  "above_max_per_host",
  "above_max_per_mcp_session",
  "permit_unavailable",
  "offer_expiring",
  "token_decimals_unknown",
] as const;

/** One of the policy's decline codes. */
export type DeclineReason = (typeof DECLINE_REASONS)[number];
