/** The settlements the admin surface lists: `GET /admin/settlements`, `status`, the operator page. */
import type { Offer } from "@svc/scheme";

import type { SettlementBook, SettlementEntry } from "../settlement/settlementBook.js";

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

/** The book's settlements in `state` (every state when undefined) as the admin surface lists them, late burns last. */
export function listAdminSettlements(book: SettlementBook, state: SettlementState | undefined): AdminSettlement[] {
  const entries: AdminSettlement[] =
    state === "late_burn"
      ? []
      : book.list(state).map((entry: SettlementEntry) => ({
          challengeNonce: entry.challenge.challengeNonce,
          state: entry.state,
          path: entry.path,
          amount: entry.challenge.amount.toString(),
          burnTxHash: entry.burnTxHash,
          acceptedAt: entry.at,
          ...(entry.finalizedAt === undefined ? {} : { finalizedAt: entry.finalizedAt }),
          ...(entry.mintTxHash === undefined ? {} : { mintTxHash: entry.mintTxHash }),
          ...(entry.reason === undefined ? {} : { reason: entry.reason }),
        }));
  const late: AdminSettlement[] =
    state === undefined || state === "late_burn"
      ? book.lateBurns.map((late) => ({
          challengeNonce: late.challenge.challengeNonce,
          state: "late_burn",
          path: late.path,
          amount: late.value,
          burnTxHash: late.burnTxHash,
          reason: `included at ${late.blockTimestamp}, offer expired at ${late.challenge.expiresAt}`,
        }))
      : [];
  return [...entries, ...late];
}
