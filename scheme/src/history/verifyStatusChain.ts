import { z } from "zod";

import { describeIssues } from "../wire/describeIssues.js";
import { artifactDigest } from "./artifactDigest.js";
import { verifyArtifactSignature } from "./artifactSignature.js";
import { parseArtifactTime } from "./artifactTime.js";
import { issuerKeyValidAt } from "./issuerKeyValidity.js";
import type { IssuerManifest } from "./issuerManifest.js";
import type { PaymentProof } from "./paymentProof.js";
import { type ProofStatus, ProofStatusSchema } from "./proofStatus.js";

const StatusChainSchema = z.array(ProofStatusSchema).min(1, { error: "a status chain holds at least one status" });

/** A status chain to check, with the already verified proof and trusted manifest it must agree with. */
export type VerifyStatusChainParameters = { statusChain: unknown; proof: PaymentProof; manifest: IssuerManifest };

/** The verified statuses in chain order, or why the chain cannot be trusted. */
export type VerifyStatusChainReturnType = { valid: true; statuses: ProofStatus[] } | { valid: false; reason: string };

/**
 * Checks a proof's status chain link by link: every status is signed by a manifest key valid when the status
 * was issued, names this proof (id and digest), payment, issuer and signing key, carries its position and the
 * digest of the status before it, starts `active` at the proof's issuance, never moves back in time, and ends
 * at the first revocation (revocation is final). Any break makes the whole chain untrusted.
 */
export function verifyStatusChain({ statusChain, proof, manifest }: VerifyStatusChainParameters): VerifyStatusChainReturnType {
  const parsed = StatusChainSchema.safeParse(statusChain);
  if (!parsed.success) return { valid: false, reason: `status chain is malformed: ${describeIssues(parsed.error)}` };
  const statuses = parsed.data;
  const proofDigest = artifactDigest(proof);
  const proofIssuedAt = parseArtifactTime(proof.payload.issued_at);
  let previous: ProofStatus | undefined;
  for (const [index, status] of statuses.entries()) {
    const at = `status ${index}`;
    const { payload } = status;
    if (payload.sequence !== index) return { valid: false, reason: `${at} is out of sequence` };
    const expectedPrevious = previous === undefined ? null : artifactDigest(previous);
    if (payload.previous !== expectedPrevious) return { valid: false, reason: `${at} does not link to the status before it` };
    if (payload.proof_id !== proof.payload.proof_id || payload.proof_digest !== proofDigest) {
      return { valid: false, reason: `${at} is bound to another proof` };
    }
    if (payload.payment_id !== proof.payload.payment.payment_id || payload.issuer !== proof.payload.issuer || payload.key_id !== proof.payload.key_id) {
      return { valid: false, reason: `${at} is bound to another payment, issuer or key` };
    }
    const signer = manifest.payload.keys.find((key) => key.key_id === status.signature.key_id);
    const issuedAt = parseArtifactTime(payload.issued_at);
    if (!signer || !issuerKeyValidAt(signer, issuedAt)) {
      return { valid: false, reason: `${at} is signed by a key the manifest does not list as valid at its issuance` };
    }
    if (!verifyArtifactSignature(status, signer.public_key)) return { valid: false, reason: `${at} signature does not verify` };
    if (issuedAt < proofIssuedAt || parseArtifactTime(payload.effective_at) < proofIssuedAt) {
      return { valid: false, reason: `${at} predates the proof` };
    }
    if (previous !== undefined && issuedAt < parseArtifactTime(previous.payload.issued_at)) {
      return { valid: false, reason: `${at} was issued before the status it follows` };
    }
    if (index === 0 && (payload.status !== "active" || payload.effective_at !== proof.payload.issued_at)) {
      return { valid: false, reason: "the first status must be active from the proof's issuance" };
    }
    if (previous?.payload.status === "revoked") return { valid: false, reason: `${at} follows a revocation, which is final` };
    previous = status;
  }
  return { valid: true, statuses };
}
