/**
 * What each participant sees of a payment. Both views share the payment facts each side already saw during
 * the payment (asset, amount, path, payer address, burn transaction, timestamps). The payer's view stops
 * there: no burn address, payout destination, mint transaction, salt or bindings, so nothing in it links the
 * payer to the mint that pays the provider. The provider's view adds `settlementEvidence` (`payTo`,
 * `recipient`, `mintTxHash`) only when the operator set `HISTORY_PROVIDER_SETTLEMENT_EVIDENCE=1`.
 */
import type { HistoryPaymentView, HistorySubject } from "@svc/scheme";

import type { PaymentHistoryEntry } from "./paymentHistoryBook.js";

/** Projection switches. */
export type ProjectionOptions = {
  /** `HISTORY_PROVIDER_SETTLEMENT_EVIDENCE`: add provider-side settlement evidence to the provider's view. */
  providerSettlementEvidence: boolean;
};

/** The view of `entry` for a participant in role `subject`. */
export function projectPayment(entry: PaymentHistoryEntry, subject: HistorySubject, options: ProjectionOptions): HistoryPaymentView {
  const view: HistoryPaymentView = {
    paymentId: entry.paymentId,
    state: entry.state,
    path: entry.path,
    network: entry.network,
    asset: entry.asset,
    amount: entry.amount,
    ...(entry.payer === undefined ? {} : { payer: entry.payer }),
    ...(entry.burnTxHash === undefined ? {} : { burnTxHash: entry.burnTxHash }),
    intentAt: entry.at,
    ...(entry.acceptedAt === undefined ? {} : { acceptedAt: entry.acceptedAt }),
    ...(entry.finalizedAt === undefined ? {} : { finalizedAt: entry.finalizedAt }),
  };
  if (subject !== "provider" || !options.providerSettlementEvidence) return view;
  return {
    ...view,
    settlementEvidence: {
      payTo: entry.payTo,
      recipient: entry.recipient,
      ...(entry.mintTxHash === undefined ? {} : { mintTxHash: entry.mintTxHash }),
    },
  };
}
