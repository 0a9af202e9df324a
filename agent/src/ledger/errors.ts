import { BaseError } from "@svc/scheme";

import { BINARY_NAME } from "../commands/binaryName.js";

/** Thrown when the ledger lock stays held by a live process for longer than the agent waits. */
export class LedgerLockTimeoutError extends BaseError {
  override name = "LedgerLockTimeoutError";
  constructor({ lockPath, timeoutMs }: { lockPath: string; timeoutMs: number }) {
    super(`The spend ledger stayed locked for ${timeoutMs} ms (${lockPath}); another agent process holds it.`);
  }
}

/** Thrown when `ledger.json` cannot be read as a ledger; the agent refuses to pay rather than guess the spend. */
export class LedgerCorruptError extends BaseError {
  override name = "LedgerCorruptError";
  constructor({ path, details, cause }: { path: string; details: string; cause?: unknown }) {
    super(`The spend ledger ${path} is unreadable; fix or move it before paying again.`, { details, cause });
  }
}

/** Thrown when no ledger entry has the given payment id. */
export class LedgerEntryNotFoundError extends BaseError {
  override name = "LedgerEntryNotFoundError";
  constructor({ id }: { id: string }) {
    super(`No payment with id ${JSON.stringify(id.slice(0, 40))} in the ledger.`);
  }
}

/**
 * Thrown when a payment for the same offer (`challengeNonce`) is already in the ledger: an offer is signed
 * at most once, and a lost answer is recovered with `resend`, never by paying again.
 */
export class OfferAlreadyUsedError extends BaseError {
  override name = "OfferAlreadyUsedError";
  /** The earlier payment for this offer. */
  readonly existingId: string;
  constructor({ existingId }: { existingId: string }) {
    super(`This offer already has payment ${existingId}; use \`${BINARY_NAME} resend ${existingId}\` instead of paying again.`);
    this.existingId = existingId;
  }
}

/** Thrown when an entry is asked to move to a status its current one does not allow (a bug, or a race lost). */
export class LedgerTransitionError extends BaseError {
  override name = "LedgerTransitionError";
  constructor({ id, from, to }: { id: string; from: string; to: string }) {
    super(`Payment ${id} cannot go from ${from} to ${to}.`);
  }
}
