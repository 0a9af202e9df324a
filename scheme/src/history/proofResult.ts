/**
 * The six results of verifying a proof offline, in the spec's evaluation order: untrusted or malformed data
 * is `INVALID` before anything else, an expired proof is `EXPIRED`, an unexpired proof without status is
 * `VALID_AT_ISSUANCE`, an unverifiable status is `STATUS_UNKNOWN`, and only a verified status (or a verified
 * key revocation) gives `VALID_NOW` or `REVOKED`. Never renamed or reused.
 */
export const PROOF_RESULTS = ["INVALID", "EXPIRED", "VALID_AT_ISSUANCE", "STATUS_UNKNOWN", "VALID_NOW", "REVOKED"] as const;

/** One of {@link PROOF_RESULTS}. */
export type ProofResult = (typeof PROOF_RESULTS)[number];
