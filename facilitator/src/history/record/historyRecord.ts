/**
 * The lines of the payment history file (`PAYMENT_HISTORY_PATH`, JSON lines, append-only). One payment is an
 * `intent` line (the record proper: payment facts, both participant bindings, the commitment salt), then
 * `accepted` and `finalized` lines; `proof_issued` lines register proofs so that only their issuer may
 * revoke them. Every line carries `v: 1` so a later format can be told apart.
 *
 * The bindings are optional in the schema on purpose: a line written without one (by hand, or by another
 * writer) still loads, and the missing role then sees nothing of that payment (fail closed).
 */
import {
  AddressSchema,
  Bytes32Schema,
  DecimalStringSchema,
  type EncodedOffer,
  HistorySubjectSchema,
  NetworkSchema,
  PaymentIdSchema,
  ProofIdSchema,
  VisibleIdSchema,
} from "@svc/scheme";
import { z } from "zod";

import type { HistoryOffer } from "./historyRecorder.js";

const unixSeconds = z.int().nonnegative();
const BindingSchema = z.object({ tenantId: VisibleIdSchema, actorId: VisibleIdSchema });

/** Written (fsynced) before the irreversible burn; holds everything the record commits to. */
export const HistoryIntentRecordSchema = z.object({
  v: z.literal(1),
  type: z.literal("intent"),
  paymentId: PaymentIdSchema,
  at: unixSeconds,
  path: z.enum(["permit", "self-transfer"]),
  network: NetworkSchema,
  asset: AddressSchema,
  payTo: AddressSchema,
  amount: DecimalStringSchema,
  payer: AddressSchema.optional(),
  /** The real payout destination (`settlement.treasury`): provider-side evidence, never shown to the payer. */
  recipient: AddressSchema,
  bindings: z.object({ payer: BindingSchema.optional(), provider: BindingSchema.optional() }),
  /** 32 random bytes as hex: the per-record salt of proof commitments. */
  salt: z.string().regex(/^[0-9a-f]{64}$/),
  // The history keys a payment by `paymentId` (the challenge nonce's own spelling), not `challengeNonce`.
}) satisfies z.ZodType<EncodedOffer<Omit<HistoryOffer, "challengeNonce">>>;

/** The burn is confirmed and the payment accepted. */
export const HistoryAcceptedRecordSchema = z.object({
  v: z.literal(1),
  type: z.literal("accepted"),
  paymentId: PaymentIdSchema,
  at: unixSeconds,
  burnTxHash: Bytes32Schema,
  payer: AddressSchema.optional(),
});

/** The proof-gated mint to the real recipient landed. */
export const HistoryFinalizedRecordSchema = z.object({
  v: z.literal(1),
  type: z.literal("finalized"),
  paymentId: PaymentIdSchema,
  at: unixSeconds,
  mintTxHash: Bytes32Schema,
});

/** A proof was issued (its artifacts are already exported); names who asked, for the revoke policy. */
export const HistoryProofIssuedRecordSchema = z.object({
  v: z.literal(1),
  type: z.literal("proof_issued"),
  paymentId: PaymentIdSchema,
  at: unixSeconds,
  proofId: ProofIdSchema,
  proofDigest: z.string().regex(/^[0-9a-f]{64}$/),
  keyId: z.string(),
  expiresAt: unixSeconds,
  issuedBy: BindingSchema.extend({ subject: HistorySubjectSchema }),
});

/** Any line of the history file. */
export const HistoryRecordSchema = z.discriminatedUnion("type", [
  HistoryIntentRecordSchema,
  HistoryAcceptedRecordSchema,
  HistoryFinalizedRecordSchema,
  HistoryProofIssuedRecordSchema,
]);

/** Any line of the history file. */
export type HistoryRecord = z.infer<typeof HistoryRecordSchema>;

/** An `intent` line. */
export type HistoryIntentRecord = z.infer<typeof HistoryIntentRecordSchema>;

/** A `proof_issued` line. */
export type HistoryProofIssuedRecord = z.infer<typeof HistoryProofIssuedRecordSchema>;
