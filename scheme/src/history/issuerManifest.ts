import { z } from "zod";

import { Ed25519PublicKeySchema, KeyIdSchema, VisibleIdSchema } from "./artifactFields.js";
import { ArtifactSignatureSchema } from "./artifactSignature.js";
import { ArtifactTimeSchema } from "./artifactTime.js";

/** The `type` of an issuer key manifest payload. */
export const ISSUER_MANIFEST_TYPE = "svc-zerc20.history.issuer-manifest";

/**
 * One issuer key: it signs proofs and status artifacts from `created_at` on, and until `revoked_at` when that
 * is set. A revoked key stays listed, so proofs it signed before the revocation still verify at issuance.
 */
export const IssuerKeySchema = z.strictObject({
  key_id: KeyIdSchema,
  alg: z.literal("Ed25519"),
  public_key: Ed25519PublicKeySchema,
  created_at: ArtifactTimeSchema,
  revoked_at: ArtifactTimeSchema.optional(),
});

/** One issuer key entry of a manifest. */
export type IssuerKey = z.infer<typeof IssuerKeySchema>;

/** The signed content of a manifest; `sequence` grows with every re-signing so the newer one is evident. */
export const IssuerManifestPayloadSchema = z
  .strictObject({
    type: z.literal(ISSUER_MANIFEST_TYPE),
    version: z.literal(1),
    issuer: VisibleIdSchema,
    sequence: z.int().min(1),
    issued_at: ArtifactTimeSchema,
    keys: z.array(IssuerKeySchema).min(1),
  })
  .refine((payload) => new Set(payload.keys.map((key) => key.key_id)).size === payload.keys.length, {
    error: "issuer key ids must be unique",
  });

/** The signed content of an issuer key manifest. */
export type IssuerManifestPayload = z.infer<typeof IssuerManifestPayloadSchema>;

/** The issuer key manifest: its payload signed by a root key of the trust anchor. */
export const IssuerManifestSchema = z.strictObject({
  payload: IssuerManifestPayloadSchema,
  signature: ArtifactSignatureSchema,
});

/** A parsed issuer key manifest. */
export type IssuerManifest = z.infer<typeof IssuerManifestSchema>;
