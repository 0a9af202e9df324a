/**
 * What a verifier revert on a teleport mint means for the payment, decoded with the deployment version's
 * published errors (v1 pauses with the string "Pausable: paused", v2 with `EnforcedPause()`). Read from the gas
 * estimate, before anything is sent: a mint that would revert costs nothing and says why.
 */
import { BaseError as ViemBaseError, ContractFunctionRevertedError } from "viem";
import { FINALIZE_FAILED_REASON, FINALIZE_WAITING_REASON, type FinalizeFailedReason, type FinalizeWaitingReason } from "./finalizeReasons.js";

/** The finalize outcome a decoded revert leads to. */
export type TeleportRevertReason = { kind: "failed"; reason: FinalizeFailedReason } | { kind: "waiting"; reason: FinalizeWaitingReason };

const BY_ERROR_NAME: Record<string, TeleportRevertReason> = {
  EnforcedPause: { kind: "waiting", reason: FINALIZE_WAITING_REASON.verifierPaused },
  ExpectedRootZero: { kind: "waiting", reason: FINALIZE_WAITING_REASON.rootRejected },
  TransferRootMismatch: { kind: "waiting", reason: FINALIZE_WAITING_REASON.rootRejected },
  InvalidProof: { kind: "waiting", reason: FINALIZE_WAITING_REASON.proofRejected },
  NothingToWithdraw: { kind: "waiting", reason: FINALIZE_WAITING_REASON.nothingToWithdraw },
  RecipientMismatch: { kind: "failed", reason: FINALIZE_FAILED_REASON.recipientRejected },
  InvalidRecipientChainId: { kind: "failed", reason: FINALIZE_FAILED_REASON.recipientRejected },
};

const BY_REASON_STRING: Record<string, TeleportRevertReason> = {
  "Pausable: paused": { kind: "waiting", reason: FINALIZE_WAITING_REASON.verifierPaused },
};

/**
 * The meaning of `error` when it is a verifier revert the protocol publishes, with its error name for the log;
 * `undefined` for anything else (a transport failure, an unknown revert), which the caller rethrows.
 */
export function teleportRevertReason(error: unknown): (TeleportRevertReason & { revert: string }) | undefined {
  if (!(error instanceof ViemBaseError)) return undefined;
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  if (!(reverted instanceof ContractFunctionRevertedError)) return undefined;
  const name = reverted.data?.errorName;
  if (name !== undefined && name in BY_ERROR_NAME) return { ...(BY_ERROR_NAME[name] as TeleportRevertReason), revert: name };
  const reason = reverted.reason;
  if (reason !== undefined && reason in BY_REASON_STRING) return { ...(BY_REASON_STRING[reason] as TeleportRevertReason), revert: reason };
  return undefined;
}
