/** The wire shapes of `POST /history/proofs/issue`, `/history/proofs/verify` and `/history/proofs/revoke`. */
import { z } from "zod";

import { PaymentIdSchema, ProofIdSchema } from "./artifactFields.js";
import { IssuerManifestSchema } from "./issuerManifest.js";
import { PaymentProofSchema } from "./paymentProof.js";
import { PROOF_RESULTS } from "./proofResult.js";
import { ProofStatusSchema } from "./proofStatus.js";

/** Issue request: the payment to prove. Any other field (a commitment, evidence) is ignored, never trusted. */
export const ProofIssueRequestSchema = z.object({ paymentId: PaymentIdSchema });

/** Request body of `POST /history/proofs/issue`. */
export type ProofIssueRequest = z.infer<typeof ProofIssueRequestSchema>;

/** Issue answer: the proof and everything a verifier needs besides the trust anchor. */
export const ProofIssueResponseSchema = z.object({
  proofId: ProofIdSchema,
  proof: PaymentProofSchema,
  manifest: IssuerManifestSchema,
  statusChain: z.array(ProofStatusSchema),
});

/** Answer of `POST /history/proofs/issue`. */
export type ProofIssueResponse = z.infer<typeof ProofIssueResponseSchema>;

/** Verify request: which proof to check online, now. */
export const ProofVerifyRequestSchema = z.object({ proofId: ProofIdSchema });

/** Request body of `POST /history/proofs/verify`. */
export type ProofVerifyRequest = z.infer<typeof ProofVerifyRequestSchema>;

/** Verify answer: the same result the offline verifier gives with the facilitator's current artifacts. */
export const ProofVerifyResponseSchema = z.object({
  proofId: ProofIdSchema,
  result: z.enum(PROOF_RESULTS),
  reason: z.string(),
});

/** Answer of `POST /history/proofs/verify`. */
export type ProofVerifyResponse = z.infer<typeof ProofVerifyResponseSchema>;

/** Revoke request: the proof and an optional short reason that goes into the signed status. */
export const ProofRevokeRequestSchema = z.object({ proofId: ProofIdSchema, reason: z.string().max(200).optional() });

/** Request body of `POST /history/proofs/revoke`. */
export type ProofRevokeRequest = z.infer<typeof ProofRevokeRequestSchema>;

/** Revoke answer: the revocation status and the whole chain ending with it. */
export const ProofRevokeResponseSchema = z.object({
  proofId: ProofIdSchema,
  status: ProofStatusSchema,
  statusChain: z.array(ProofStatusSchema),
});

/** Answer of `POST /history/proofs/revoke`. */
export type ProofRevokeResponse = z.infer<typeof ProofRevokeResponseSchema>;
