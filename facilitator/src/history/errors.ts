/**
 * Errors of payment history and proofs. Startup errors name the variable or file and the rule broken, never
 * a value (identity secret, key bytes). The HTTP ones carry their status and a short message written by us,
 * answered as `{ error }` by the app's error middleware.
 */
import { BaseError } from "../errors/base.js";
import { HttpAnswerError } from "../errors/httpAnswerError.js";

/** A history environment variable is set but unusable; `reason` states the rule, not the value. */
export class InvalidHistoryVariableError extends BaseError {
  override name = "InvalidHistoryVariableError";
  /** The variable that is malformed. */
  readonly variable: string;

  constructor({ variable, reason }: { variable: string; reason: string }) {
    super(`${variable} is invalid: ${reason}.`);
    this.variable = variable;
  }
}

/** Some but not all proof variables are set: proofs are one group, so the daemon refuses to start. */
export class IncompleteProofConfigurationError extends BaseError {
  override name = "IncompleteProofConfigurationError";
  /** The required proof variables that are missing. */
  readonly missing: readonly string[];

  constructor({ missing }: { missing: readonly string[] }) {
    super(`incomplete proof configuration: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not set.`, {
      details: "set all of HISTORY_ISSUER_PRIVATE_KEY_PATH, HISTORY_ISSUER_MANIFEST_PATH, HISTORY_ISSUER_TRUST_ANCHOR_PATH and HISTORY_ARTIFACT_PATH, or none",
    });
    this.missing = missing;
  }
}

/** A proof configuration file (issuer key, manifest, trust anchor) cannot be read or is not what it must be. */
export class ProofConfigurationError extends BaseError {
  override name = "ProofConfigurationError";
  /** The variable naming the file at fault. */
  readonly variable: string;

  constructor({ variable, reason, cause }: { variable: string; reason: string; cause?: unknown }) {
    super(`${variable}: ${reason}.`, { cause });
    this.variable = variable;
  }
}

/** The payment history file cannot be opened or holds a line this version does not understand. */
export class PaymentHistoryFileError extends BaseError {
  override name = "PaymentHistoryFileError";

  constructor({ path, reason, cause }: { path: string; reason: string; cause?: unknown }) {
    super(`payment history ${path}: ${reason}`, {
      cause,
      details: "PAYMENT_HISTORY_PATH must name a writable JSONL file; only a torn last line is repaired automatically",
    });
  }
}

/** The history file could not be read (a damaged record): reads answer 503 and no intent is written until it is repaired. */
export class HistoryUnavailableError extends HttpAnswerError {
  override name = "HistoryUnavailableError";

  constructor({ cause }: { cause?: unknown } = {}) {
    super("payment history is unavailable: the history file could not be read", { status: 503, cause });
  }
}

/** A history write was refused or failed; settlement treats a failed intent write as "do not burn". */
export class HistoryWriteError extends BaseError {
  override name = "HistoryWriteError";

  constructor({ reason, cause }: { reason: string; cause?: unknown }) {
    super(`payment history not written: ${reason}`, { cause });
  }
}

/** A code-level history option is out of range (for example an identity-token lifetime above 3600 s). */
export class InvalidHistoryOptionError extends BaseError {
  override name = "InvalidHistoryOptionError";

  constructor({ option, reason }: { option: string; reason: string }) {
    super(`history option ${option} is invalid: ${reason}`);
  }
}

/** A history request is malformed (HTTP 400). */
export class HistoryBadRequestError extends HttpAnswerError {
  override name = "HistoryBadRequestError";

  constructor(message: string) {
    super(message, { status: 400 });
  }
}

/** Missing, bad or expired credentials: signature, challenge or identity token (HTTP 401). */
export class HistoryUnauthorizedError extends HttpAnswerError {
  override name = "HistoryUnauthorizedError";

  constructor(message: string) {
    super(message, { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
  }
}

/** The identity is authentic but the binding or policy refuses it (HTTP 403). */
export class HistoryForbiddenError extends HttpAnswerError {
  override name = "HistoryForbiddenError";

  constructor(message: string) {
    super(message, { status: 403 });
  }
}

/** No payment or proof visible to this participant has that identifier (HTTP 404). */
export class HistoryNotFoundError extends HttpAnswerError {
  override name = "HistoryNotFoundError";

  constructor(message: string) {
    super(message, { status: 404 });
  }
}

/** The payment is not in a state the request needs (HTTP 409), such as a proof for an intent-only payment. */
export class HistoryConflictError extends HttpAnswerError {
  override name = "HistoryConflictError";

  constructor(message: string) {
    super(message, { status: 409 });
  }
}

/** Which history limit refused a request. */
export type HistoryRateLimitScope = "history_challenge" | "history_verify";

/** A per client IP and subject history limit refused the request (HTTP 429 with `Retry-After`). */
export class HistoryRateLimitError extends HttpAnswerError {
  override name = "HistoryRateLimitError";
  /** The limit that was exceeded. */
  readonly scope: HistoryRateLimitScope;

  constructor({ scope, retryAfterSeconds }: { scope: HistoryRateLimitScope; retryAfterSeconds: number }) {
    super(`${scope === "history_challenge" ? "history challenge issuance" : "history login verification"} rate exceeded; retry after ${retryAfterSeconds} s`, {
      status: 429,
      headers: { "Retry-After": String(retryAfterSeconds) },
    });
    this.scope = scope;
  }
}

/** Too many login challenges are pending (HTTP 503); they expire within the challenge lifetime. */
export class HistoryChallengeCapacityError extends HttpAnswerError {
  override name = "HistoryChallengeCapacityError";

  constructor({ capacity }: { capacity: number }) {
    super(`too many pending history login challenges (${capacity}); retry shortly`, { status: 503, headers: { "Retry-After": "30" } });
  }
}
