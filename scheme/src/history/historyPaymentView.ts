/**
 * The wire shape of a payment as `GET /history/payments` and `GET /history/payments/:paymentId` show it to
 * one participant. The payer's view never carries settlement evidence; the provider's carries it only when
 * the operator turned the provider settlement-evidence switch on.
 */
import { z } from "zod";

import { AddressSchema } from "../wire/address.js";
import { Bytes32Schema } from "../wire/bytes32.js";
import { DecimalStringSchema } from "../wire/decimalString.js";
import { NetworkSchema } from "../wire/network.js";
import { PaymentIdSchema } from "./artifactFields.js";

/** Provider-side settlement evidence: the burn address, the payout destination and the mint once it landed. */
export const ProviderSettlementEvidenceSchema = z.object({
  payTo: AddressSchema,
  recipient: AddressSchema,
  mintTxHash: Bytes32Schema.optional(),
});

/** Provider-side settlement evidence of one payment. */
export type ProviderSettlementEvidence = z.infer<typeof ProviderSettlementEvidenceSchema>;

/** One payment as a participant sees it; times are unix seconds. */
export const HistoryPaymentViewSchema = z.object({
  paymentId: PaymentIdSchema,
  state: z.enum(["intent", "accepted", "finalized"]),
  path: z.enum(["permit", "self-transfer"]),
  network: NetworkSchema,
  asset: AddressSchema,
  amount: DecimalStringSchema,
  payer: AddressSchema.optional(),
  burnTxHash: Bytes32Schema.optional(),
  intentAt: z.int(),
  acceptedAt: z.int().optional(),
  finalizedAt: z.int().optional(),
  settlementEvidence: ProviderSettlementEvidenceSchema.optional(),
});

/** One payment as a participant sees it. */
export type HistoryPaymentView = z.infer<typeof HistoryPaymentViewSchema>;

/** `GET /history/payments` answer. */
export const HistoryPaymentsResponseSchema = z.object({ payments: z.array(HistoryPaymentViewSchema) });

/** Answer of `GET /history/payments`. */
export type HistoryPaymentsResponse = z.infer<typeof HistoryPaymentsResponseSchema>;
