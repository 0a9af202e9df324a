/**
 * Reason codes of a prover adapter that could not deliver a proof, one per failure class in `errors.ts`. The
 * finalize pass that asked fails and retries with backoff; `finalize_pass_failed` carries the code as
 * `reason`. Codes are never renamed or reused: dashboards and runbooks keep them.
 */

/** Why a prover adapter produced no proof. */
export const PROVER_FAILURE_REASON = {
  /** The program could not be started, or the service could not be reached (or the adapter is closed). */
  unavailable: "prover_unavailable",
  /** The program or service did not answer within `prover.timeout_ms`; the program was killed, the request aborted. */
  timeout: "prover_timeout",
  /** The program exited non-zero or was killed by a signal, or the service answered a non-2xx status. */
  failed: "prover_failed",
  /** The answer is not a proof of this witness: unparseable, the wrong length, or other public inputs. */
  outputInvalid: "prover_output_invalid",
} as const;

/** One of the values of {@link PROVER_FAILURE_REASON}. */
export type ProverFailureReason = (typeof PROVER_FAILURE_REASON)[keyof typeof PROVER_FAILURE_REASON];
