/**
 * How many passes the prover refused each payment's witness on, so the finalize step can retry a refusal a
 * few times (a transient indexer answer may be the cause) and then fail the payment with `witness_rejected`
 * instead of asking the prover again on every pass. In memory: a restart counts afresh.
 */
import type { Hex } from "viem";

/** The refusal count per payment. */
export type WitnessRejections = {
  /** Records one more refused witness of the payment; returns how many passes refused it so far. */
  refused: (challengeNonce: Hex) => number;
  /** Forgets the payment: its witness was proved, or it failed for good. */
  clear: (challengeNonce: Hex) => void;
};

/**
 * Creates an empty count.
 *
 * @example
 * const rejections = createWitnessRejections();
 * if (rejections.refused(nonce) >= WITNESS_REJECTION_LIMIT) fail(nonce);
 */
export function createWitnessRejections(): WitnessRejections {
  const counts = new Map<string, number>();
  return {
    refused: (challengeNonce) => {
      const key = challengeNonce.toLowerCase();
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      return count;
    },
    clear: (challengeNonce) => void counts.delete(challengeNonce.toLowerCase()),
  };
}
