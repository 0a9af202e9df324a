/**
 * The seam where the optional payment-history recorder plugs into settlement. Settlement writes the intent
 * before the irreversible burn through `requireIntent`, the intent policy: a failed write refuses the settle
 * with `intent_not_recorded` and nothing is consumed, so no payment is ever accepted without its intent. Then
 * `recordAccepted` and `recordFinalized` follow the lifecycle. Without history configuration the daemon wires
 * {@link noHistory}.
 */
import type { Network, Offer } from "@svc/scheme";
import type { Address, Hex } from "viem";

/** The part of the offer the payment history keeps, as its recorder reads it (`intent` lines store it encoded). */
export type HistoryOffer = Pick<Offer, "challengeNonce" | "asset" | "payTo" | "amount">;

/** What every history event carries about the payment: the offer's matched fields, its network and path. */
export type HistoryPayment = HistoryOffer & {
  path: "permit" | "self-transfer";
  network: Network;
  /** The paying EOA when known (always on the permit path; the burn sender on self-transfer). */
  payer: Address | undefined;
};

/** Receives the lifecycle of each payment. */
export type HistoryRecorder = {
  /** Before the irreversible burn; a rejection refuses the settle (see `requireIntent`). */
  recordIntent: (payment: HistoryPayment) => Promise<void>;
  /** After the accepted entry is journaled. */
  recordAccepted: (payment: HistoryPayment & { burnTxHash: Hex }) => Promise<void>;
  /** After the proof-gated mint landed. */
  recordFinalized: (payment: { challengeNonce: Hex; mintTxHash: Hex }) => Promise<void>;
};

/** The recorder used when payment history is not configured: records nothing, never fails. */
export const noHistory: HistoryRecorder = {
  recordIntent: async () => undefined,
  recordAccepted: async () => undefined,
  recordFinalized: async () => undefined,
};
