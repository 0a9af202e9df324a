/**
 * Reason codes of a prover adapter that could not deliver a proof, one per failure class in `errors.ts`. The
 * first four are the prover's trouble: the finalize pass that asked fails and retries with backoff, and
 * `finalize_pass_failed` carries the code as `reason`. The last two are about the payment asked for (its
 * witness, or a proof this prover does not make): the pass goes on with the other payments and the finalize
 * step answers that one with a reason code of its own (`witness_rejected`, `proof_unsupported`). Codes are
 * never renamed or reused: dashboards and runbooks keep them.
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
  /**
   * The circuit refuses the witness: one of its constraints fails (a Merkle path that does not lead to the root,
   * a leaf index that is not the transfer's, a leaf without its sender, a secret that fails the proof of work).
   * No proof of it exists; the same witness is refused every time.
   */
  witnessRejected: "prover_witness_rejected",
  /** The adapter makes no proof of this kind (the snarkjs adapter and a batch outside profile `local`). */
  unsupported: "prover_unsupported",
} as const;

/** One of the values of {@link PROVER_FAILURE_REASON}. */
export type ProverFailureReason = (typeof PROVER_FAILURE_REASON)[keyof typeof PROVER_FAILURE_REASON];
