import { z } from "zod";

import { AddressSchema } from "../wire/address.js";
import { DecimalStringSchema } from "../wire/decimalString.js";
import { NetworkSchema } from "../wire/network.js";
import { HistorySubjectSchema, KeyIdSchema, PaymentIdSchema, ProofIdSchema, Sha256HexSchema, VisibleIdSchema } from "./artifactFields.js";
import { ArtifactSignatureSchema } from "./artifactSignature.js";
import { ArtifactTimeSchema } from "./artifactTime.js";

/** The `type` of a payment proof payload. */
export const PAYMENT_PROOF_TYPE = "svc-zerc20.history.payment-proof";

/** The algorithm of a record commitment: SHA-256 over the RFC 8785 form of `{ type, salt, record }`. */
export const RECORD_COMMITMENT_ALG = "sha256-jcs-salted";

/** A participant as a history record binds it: tenant and actor. */
export const ProofParticipantSchema = z.strictObject({ tenant_id: VisibleIdSchema, actor_id: VisibleIdSchema });

/**
 * What a proof discloses about the payment: enough for a third party to see who paid whom how much, when,
 * and how far settlement got. Burn and mint transactions, burn address, payer address and payout
 * destination stay behind the record commitment.
 */
export const ProvenPaymentSchema = z.strictObject({
  payment_id: PaymentIdSchema,
  state: z.enum(["accepted", "finalized"]),
  network: NetworkSchema,
  asset: AddressSchema,
  amount: DecimalStringSchema,
  accepted_at: ArtifactTimeSchema,
  finalized_at: ArtifactTimeSchema.optional(),
});

/** The signed content of a payment proof. */
export const PaymentProofPayloadSchema = z.strictObject({
  type: z.literal(PAYMENT_PROOF_TYPE),
  version: z.literal(1),
  proof_id: ProofIdSchema,
  issuer: VisibleIdSchema,
  key_id: KeyIdSchema,
  issued_at: ArtifactTimeSchema,
  expires_at: ArtifactTimeSchema,
  requested_by: HistorySubjectSchema,
  payment: ProvenPaymentSchema,
  participants: z.strictObject({ payer: ProofParticipantSchema, provider: ProofParticipantSchema }),
  record_commitment: z.strictObject({ alg: z.literal(RECORD_COMMITMENT_ALG), value: Sha256HexSchema }),
});

/** The signed content of a payment proof. */
export type PaymentProofPayload = z.infer<typeof PaymentProofPayloadSchema>;

/** A payment proof: its payload signed by an issuer key listed in the manifest. A bearer artifact. */
export const PaymentProofSchema = z.strictObject({
  payload: PaymentProofPayloadSchema,
  signature: ArtifactSignatureSchema,
});

/** A parsed payment proof. */
export type PaymentProof = z.infer<typeof PaymentProofSchema>;
