import { describeIssues } from "../wire/describeIssues.js";
import { verifyArtifactSignature } from "./artifactSignature.js";
import { formatArtifactTime, parseArtifactTime } from "./artifactTime.js";
import { issuerKeyValidAt } from "./issuerKeyValidity.js";
import { type PaymentProofPayload, PaymentProofSchema } from "./paymentProof.js";
import type { ProofResult } from "./proofResult.js";
import { verifyIssuerManifest } from "./verifyIssuerManifest.js";
import { verifyStatusChain } from "./verifyStatusChain.js";

/** The artifacts to check, exactly as read (unparsed), and the instant to evaluate them at. */
export type VerifyPaymentProofParameters = {
  /** The signed proof (`proof.json`). */
  proof: unknown;
  /** The issuer key manifest (`manifest.json`). */
  manifest: unknown;
  /** The trust anchor, obtained out of band (never from whoever handed over the proof). */
  trustAnchor: unknown;
  /** The proof's status chain, oldest first; omit it to ask only whether the proof was valid when issued. */
  statusChain?: unknown;
  /** When to evaluate expiry, status and key revocation; defaults to now. */
  at?: Date | undefined;
};

/** The outcome: one of the six results, a reason in words, and the proof's payload once it verified. */
export type PaymentProofVerification = {
  result: ProofResult;
  reason: string;
  /** The verified payload; present for every result but `INVALID`. */
  proof?: PaymentProofPayload;
};

/**
 * Verifies a payment proof offline from its artifacts alone: no facilitator, no chain, no network. The
 * manifest is checked against the trust anchor before its keys check the proof, and the results follow the
 * spec's evaluation order (see `PROOF_RESULTS`). A malformed input is a result (`INVALID` or
 * `STATUS_UNKNOWN`), never an exception.
 *
 * @example
 * const { result, reason } = verifyPaymentProof({ proof, manifest, trustAnchor, statusChain });
 * if (result !== "VALID_NOW") console.log(`${result}: ${reason}`);
 */
export function verifyPaymentProof(parameters: VerifyPaymentProofParameters): PaymentProofVerification {
  const at = Math.floor((parameters.at ?? new Date()).getTime() / 1000);
  const invalid = (reason: string): PaymentProofVerification => ({ result: "INVALID", reason });

  const trusted = verifyIssuerManifest({ manifest: parameters.manifest, trustAnchor: parameters.trustAnchor });
  if (!trusted.valid) return invalid(trusted.reason);
  const { manifest } = trusted;
  const parsed = PaymentProofSchema.safeParse(parameters.proof);
  if (!parsed.success) return invalid(`proof is malformed: ${describeIssues(parsed.error)}`);
  const proof = parsed.data;
  const { payload } = proof;
  if (payload.issuer !== manifest.payload.issuer) return invalid("proof names a different issuer than the manifest");
  if (proof.signature.key_id !== payload.key_id) return invalid("proof is signed by another key than it names");
  const key = manifest.payload.keys.find((candidate) => candidate.key_id === payload.key_id);
  if (!key) return invalid("proof signing key is not listed in the manifest");
  if (!verifyArtifactSignature(proof, key.public_key)) return invalid("proof signature does not verify");
  const issuedAt = parseArtifactTime(payload.issued_at);
  const expiresAt = parseArtifactTime(payload.expires_at);
  if (!issuerKeyValidAt(key, issuedAt)) return invalid("proof signing key was not valid when the proof was issued");
  if (expiresAt <= issuedAt) return invalid("proof expires before it was issued");
  if (at < issuedAt) return invalid(`verification time ${formatArtifactTime(at)} precedes the proof's issuance`);

  const verified = (result: ProofResult, reason: string): PaymentProofVerification => ({ result, reason, proof: payload });
  if (at >= expiresAt) return verified("EXPIRED", `proof expired at ${payload.expires_at}`);
  if (parameters.statusChain === undefined) {
    return verified("VALID_AT_ISSUANCE", "signature and issuance-time key validity verify; no status supplied, so no claim about now");
  }

  const chain = verifyStatusChain({ statusChain: parameters.statusChain, proof, manifest });
  if (!chain.valid) return verified("STATUS_UNKNOWN", chain.reason);
  // The chain starts active at issuance and `at` is not before issuance, so some status is always effective.
  const effective = chain.statuses.filter((status) => parseArtifactTime(status.payload.effective_at) <= at);
  const revocation = effective.find((status) => status.payload.status === "revoked");
  if (revocation) return verified("REVOKED", `proof revoked effective ${revocation.payload.effective_at}`);
  if (!issuerKeyValidAt(key, at)) {
    return verified("REVOKED", `proof status is active but its signing key was revoked at ${key.revoked_at ?? "an unknown time"}`);
  }
  return verified("VALID_NOW", "proof status is active and its signing key is not revoked");
}
