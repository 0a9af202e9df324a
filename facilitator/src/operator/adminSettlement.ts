/** The settlements the admin surface lists: `GET /admin/settlements`, `status`, the operator page. */
import type { Offer } from "@svc/scheme";

/** States `GET /admin/settlements?state=` filters on. */
export const SETTLEMENT_STATES = ["accepted", "finalized", "failed", "late_burn"] as const;

/** One of {@link SETTLEMENT_STATES}. */
export type SettlementState = (typeof SETTLEMENT_STATES)[number];

/**
 * The offer as the admin surface shows it: which challenge and how much, each as text (the amount a decimal
 * string). Text, not the offer's narrower types: the operator page also renders what a remote daemon answered.
 */
export type AdminOfferView = Record<keyof Pick<Offer, "challengeNonce" | "amount">, string>;

/** A settlement as the admin surface lists it (no secrets, no payer-to-mint linkage beyond the entry). */
export type AdminSettlement = AdminOfferView & {
  state: SettlementState;
  path: "permit" | "self-transfer";
  burnTxHash: string;
  acceptedAt?: number;
  finalizedAt?: number;
  mintTxHash?: string;
  reason?: string;
};
