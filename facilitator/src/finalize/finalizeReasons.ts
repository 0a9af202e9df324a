/**
 * Reason codes of the finalize step, as data like settlement's: a `failed` code is journaled as the entry's
 * `failed.reason` and labels `facilitator_finalize_failures_total`; a `waiting` code is logged and the entry is
 * tried again on the next pass. Codes are never renamed or reused: journals and dashboards keep them. One code,
 * `witness_rejected`, is both: waiting on its first passes, then failed, with one meaning throughout.
 */

import { BURN_VANISHED_REASON } from "../settlement/settlementBook.js";

/** Why an accepted entry failed for good (nothing was minted). */
export const FINALIZE_FAILED_REASON = {
  /**
   * The burn transaction is gone, no longer succeeds, or no longer transfers the amount to the burn address,
   * and the block it was in is final: a reorg removed it for good (see `burn_reorged`).
   */
  evidenceVanished: BURN_VANISHED_REASON,
  /** The burn seed does not open the entry's burn address. */
  burnAddressMismatch: "burn_address_mismatch",
  /**
   * The verifier refuses the general recipient (`RecipientMismatch`, `InvalidRecipientChainId`): the recipient
   * hash or chain the burn address commits to is not what this deployment mints to; no retry can change that.
   * The burn can still be withdrawn by hand (`withdrawal-witness`).
   */
  recipientRejected: "recipient_rejected",
  /**
   * The prover's circuit refused the payment's witness (`prover_witness_rejected`; the fixture prover: a false
   * statement) on {@link WITNESS_REJECTION_LIMIT} passes in a row: a Merkle path that does not lead to the root,
   * a leaf index or sender that is not the transfer's, a secret that fails the proof of work. No proof of it
   * exists, so it is not tried again. The burn can still be withdrawn by hand (`withdrawal-witness`) once
   * whatever served the wrong witness (usually the indexer's paths) is fixed.
   */
  witnessRejected: "witness_rejected",
} as const;

/** One of the values of {@link FINALIZE_FAILED_REASON}. */
export type FinalizeFailedReason = (typeof FINALIZE_FAILED_REASON)[keyof typeof FINALIZE_FAILED_REASON];

/** Why an accepted entry is not finalized yet in this pass. */
export const FINALIZE_WAITING_REASON = {
  /** The chain scan from the challenge's issuance has not found transfers covering the amount yet (the code predates the scan). */
  burnNotIndexed: "burn_not_indexed",
  /** No proved root covers the burn's transfers yet. */
  rootNotProved: "root_not_proved",
  /** The indexer's Merkle root differs from the verifier's proved root. */
  rootMismatch: "root_mismatch",
  /** The mint was submitted but its receipt did not arrive in time. */
  mintPending: "mint_pending",
  /** The mint transaction reverted; the next pass retries it. */
  mintReverted: "mint_reverted",
  /** The verifier counts the burn as minted, but the mint transaction is not found yet. */
  mintNotFound: "mint_not_found",
  /** This daemon has no prover (a profile other than `local`), so it never mints. */
  noProver: "no_prover",
  /** The verifier is paused (its emergency switch); the mint is tried again once it is not. */
  verifierPaused: "verifier_paused",
  /** The verifier refused the root the proof is against (`ExpectedRootZero`, `TransferRootMismatch`); a later pass proves against a newer one. */
  rootRejected: "root_rejected",
  /** The verifier refused the proof (`InvalidProof`): a prover fault; tried again, and worth an operator's look. */
  proofRejected: "proof_rejected",
  /** The verifier has nothing more to mint for the recipient hash (`NothingToWithdraw`): minted meanwhile, found on the next pass. */
  nothingToWithdraw: "nothing_to_withdraw",
  /**
   * The prover's circuit refused the payment's witness on fewer than {@link WITNESS_REJECTION_LIMIT} passes in a
   * row: tried again next pass (a transient indexer answer may be the cause), then failed with the same code.
   */
  witnessRejected: "witness_rejected",
  /**
   * A reorg removed the burn: it is pending again, relayed again (a permit burn whose authorization is still
   * valid) or waiting for its block to become final, when it fails as `evidence_vanished` (watchReorgs.ts).
   */
  burnReorged: "burn_reorged",
  /** The configured prover makes no proof of this kind (`prover_unsupported`: the snarkjs adapter and a batch outside profile `local`). */
  proofUnsupported: "proof_unsupported",
  /**
   * `[finalize] witnesses = "self"`: the followed transfer tree has not reached the proved root the mint needs
   * (or holds no path for the burn's leaf); the next pass syncs further. The indexer is never asked instead.
   */
  witnessBehind: "witness_behind",
  /**
   * `[finalize] witnesses = "self"`: the followed tree's root differs from the verifier's proved root, so the
   * follower stopped (`WitnessRootMismatchError`) and nothing is minted from its paths until an operator looks.
   */
  witnessRootMismatch: "witness_root_mismatch",
} as const;

/**
 * Passes in a row on which the prover may refuse a payment's witness before the payment fails as
 * `witness_rejected` (counted per daemon run: a restart allows as many again).
 */
export const WITNESS_REJECTION_LIMIT = 3;

/** One of the values of {@link FINALIZE_WAITING_REASON}. */
export type FinalizeWaitingReason = (typeof FINALIZE_WAITING_REASON)[keyof typeof FINALIZE_WAITING_REASON];
