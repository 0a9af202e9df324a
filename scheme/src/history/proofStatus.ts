import { z } from "zod";

import { KeyIdSchema, PaymentIdSchema, ProofIdSchema, Sha256HexSchema, VisibleIdSchema } from "./artifactFields.js";
import { ArtifactSignatureSchema } from "./artifactSignature.js";
import { ArtifactTimeSchema } from "./artifactTime.js";

/** The `type` of a proof status payload. */
export const PROOF_STATUS_TYPE = "svc-zerc20.history.proof-status";

/**
 * The signed content of one status artifact. It names the proof (id and digest), the payment, the issuer and
 * the proof's signing key, so it cannot be moved to another proof; `sequence` and `previous` (the digest of
 * the artifact before it, `null` for the first) make the chain append-only and gap-free.
 */
export const ProofStatusPayloadSchema = z.strictObject({
  type: z.literal(PROOF_STATUS_TYPE),
  version: z.literal(1),
  sequence: z.int().min(0),
  previous: Sha256HexSchema.nullable(),
  issuer: VisibleIdSchema,
  key_id: KeyIdSchema,
  proof_id: ProofIdSchema,
  proof_digest: Sha256HexSchema,
  payment_id: PaymentIdSchema,
  status: z.enum(["active", "revoked"]),
  effective_at: ArtifactTimeSchema,
  issued_at: ArtifactTimeSchema,
  reason: z.string().max(200).optional(),
});

/** The signed content of a status artifact. */
export type ProofStatusPayload = z.infer<typeof ProofStatusPayloadSchema>;

/** One status artifact: its payload signed by an issuer key valid when it was issued. */
export const ProofStatusSchema = z.strictObject({
  payload: ProofStatusPayloadSchema,
  signature: ArtifactSignatureSchema,
});

/** A parsed status artifact. */
export type ProofStatus = z.infer<typeof ProofStatusSchema>;
