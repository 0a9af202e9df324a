import { artifactDigest } from "./artifactDigest.js";

/** The domain tag inside every committed value, so a commitment can never be mistaken for another digest. */
export const RECORD_COMMITMENT_TYPE = "svc-zerc20.history.record-commitment";

/** The persisted record and its per-record salt, as the facilitator keeps them. */
export type ComputeRecordCommitmentParameters = {
  /** The committed view of the persisted record (the facilitator documents its fields). */
  record: unknown;
  /** The record's random salt: without it the commitment cannot be brute-forced from guessable fields. */
  salt: string;
};

/**
 * The salted commitment a proof carries: SHA-256 over the canonical JSON of `{ type, salt, record }`. A holder
 * of the record and its salt (the operator, or a participant it discloses them to) recomputes it and compares
 * with `proof.payload.record_commitment.value`; the proof alone reveals nothing behind it.
 *
 * @example
 * computeRecordCommitment({ record, salt }) === proof.payload.record_commitment.value;
 */
export function computeRecordCommitment({ record, salt }: ComputeRecordCommitmentParameters): string {
  return artifactDigest({ type: RECORD_COMMITMENT_TYPE, salt, record });
}
