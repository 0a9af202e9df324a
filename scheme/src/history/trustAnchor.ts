import { z } from "zod";

import { Ed25519PublicKeySchema, KeyIdSchema, VisibleIdSchema } from "./artifactFields.js";

/** The `type` of a trust anchor. */
export const TRUST_ANCHOR_TYPE = "svc-zerc20.history.trust-anchor";

/** One root key of a trust anchor: it may sign the issuer's key manifest. */
export const TrustAnchorKeySchema = z.strictObject({
  key_id: KeyIdSchema,
  alg: z.literal("Ed25519"),
  public_key: Ed25519PublicKeySchema,
});

/**
 * The out-of-band bootstrap trust anchor: the issuer's name and the root public keys allowed to sign its key
 * manifest. It is unsigned on purpose; its authenticity comes from how it reached the verifier (published by
 * the operator, pinned in configuration), never from the facilitator that hands out proofs.
 */
export const TrustAnchorSchema = z
  .strictObject({
    type: z.literal(TRUST_ANCHOR_TYPE),
    version: z.literal(1),
    issuer: VisibleIdSchema,
    root_keys: z.array(TrustAnchorKeySchema).min(1),
  })
  .refine((anchor) => new Set(anchor.root_keys.map((key) => key.key_id)).size === anchor.root_keys.length, {
    error: "root key ids must be unique",
  });

/** A parsed trust anchor. */
export type TrustAnchor = z.infer<typeof TrustAnchorSchema>;
