/** The settlements the admin surface lists: `GET /admin/settlements`, `status`, the operator page. */

/** States `GET /admin/settlements?state=` filters on. */
export const SETTLEMENT_STATES = ["accepted", "finalized", "failed", "late_burn"] as const;

/** One of {@link SETTLEMENT_STATES}. */
export type SettlementState = (typeof SETTLEMENT_STATES)[number];

/** A settlement as the admin surface lists it (no secrets, no payer-to-mint linkage beyond the entry). */
export type AdminSettlement = {
  challengeNonce: string;
  state: SettlementState;
  path: "permit" | "self-transfer";
  amount: string;
  burnTxHash: string;
  acceptedAt?: number;
  finalizedAt?: number;
  mintTxHash?: string;
  reason?: string;
};
