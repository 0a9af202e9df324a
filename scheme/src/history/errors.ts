/**
 * Errors of the payment-history library: artifact signing and the history HTTP client (canonical JSON's
 * error lives beside it, in `errors/wire.ts`). A failed proof check is never one of these: the verifier
 * answers with a result and a reason instead.
 */
import { BaseError } from "../errors/base.js";
import type { FacilitatorRequestFailure } from "../http/requestFacilitatorJson.js";

/** A key given for signing or verifying artifacts is not an Ed25519 key of the expected kind. */
export class InvalidArtifactKeyError extends BaseError {
  override name = "InvalidArtifactKeyError";

  constructor({ reason, cause }: { reason: string; cause?: unknown }) {
    super(`not a usable Ed25519 artifact key: ${reason}`, { cause });
  }
}

/** Why a history HTTP call produced no usable answer: the request failed, its answer is not the documented shape, or its login message is not one to sign. */
export type HistoryRequestFailure = FacilitatorRequestFailure | { kind: "invalid_answer"; issues: string } | { kind: "unexpected_challenge"; issues: string };

/**
 * Thrown by the history client when the facilitator is unreachable, refuses (with its status and `{ error }`
 * text), answers something that is not the documented shape, or hands out a login message the wallet should
 * not sign.
 */
export class HistoryRequestError extends BaseError {
  override name = "HistoryRequestError";
  /** What went wrong, as data. */
  readonly failure: HistoryRequestFailure;

  constructor({ failure, path, cause }: { failure: HistoryRequestFailure; path: string; cause?: unknown }) {
    super(describeFailure(failure, path), { cause });
    this.failure = failure;
  }
}

function describeFailure(failure: HistoryRequestFailure, path: string): string {
  const prefix = `history request ${path} failed`;
  switch (failure.kind) {
    case "unreachable":
      return `${prefix}: the facilitator is unreachable`;
    case "timeout":
      return `${prefix}: no answer within ${failure.timeoutMs} ms`;
    case "refused":
      return `${prefix}: HTTP ${failure.status}${failure.facilitatorError === undefined ? "" : ` (${quoteShort(failure.facilitatorError)})`}`;
    case "invalid_answer":
      return `${prefix}: the answer is not the documented shape (${quoteShort(failure.issues)})`;
    case "unexpected_challenge":
      return `${prefix}: refusing to sign the login message (${quoteShort(failure.issues)})`;
  }
}

/** Quotes untrusted text briefly, so a hostile answer cannot flood a log line. */
function quoteShort(value: string, limit = 160): string {
  const flat = value.replace(/\s+/g, " ").trim();
  return flat.length > limit ? `${flat.slice(0, limit)}…` : flat;
}
