/** Errors of challenge issuance; the HTTP layer maps each to its status. */
import { BaseError } from "../errors/base.js";

/** Payment acceptance is off under this profile (HTTP 403). */
export class ProfileDisabledError extends BaseError {
  override name = "ProfileDisabledError";
  constructor(readonly profile: string | undefined) {
    super(
      `payment acceptance is disabled for profile ${profile ?? "(unset)"}: ${
        profile === "testnet" || profile === "production"
          ? 'it needs a real prover ([prover] kind = "command", "http" or "snarkjs")'
          : "name a profile in the configuration file"
      }`,
    );
  }
}

/** `daemon.max_open_challenges` open challenges exist already (HTTP 503). */
export class ChallengeCapacityError extends BaseError {
  override name = "ChallengeCapacityError";
  constructor(readonly maxOpen: number) {
    super(`too many open challenges (${maxOpen}); retry after some expire or settle`);
  }
}

/** Burn addresses could not be derived in time (HTTP 503). */
export class BurnAddressUnavailableError extends BaseError {
  override name = "BurnAddressUnavailableError";
  constructor(parameters: { cause?: unknown } = {}) {
    super("no burn address is available right now; retry shortly", parameters);
  }
}

/** The burn-address pool was closed (daemon shutting down), so it hands out no more addresses. */
export class BurnAddressPoolClosedError extends BaseError {
  override name = "BurnAddressPoolClosedError";
  constructor() {
    super("the burn-address pool is closed");
  }
}

/**
 * A derived burn secret failed its check on the main thread (proof of work, address, recipient hash, tweak):
 * the derivation and the scheme disagree, so no address from that source may be offered.
 */
export class BurnAddressVerificationError extends BaseError {
  override name = "BurnAddressVerificationError";
  constructor(readonly check: string) {
    super(`a derived burn address failed verification: ${check}`);
  }
}

/** The worker thread searching burn-address proofs of work failed or stopped before answering. */
export class BurnAddressWorkerError extends BaseError {
  override name = "BurnAddressWorkerError";
  constructor({ reason, cause }: { reason: string; cause?: unknown }) {
    super(`the burn-address worker stopped: ${reason}`, { cause });
  }
}

/** A challenge with the same nonce or `payTo` is already stored: a reused burn address would link two payments. */
export class DuplicateChallengeError extends BaseError {
  override name = "DuplicateChallengeError";
  constructor(readonly field: "challengeNonce" | "payTo") {
    super(`a challenge with the same ${field} is already stored`);
  }
}

/** An option of the challenge machinery (pool size, worker count, timeout, store bound) is out of range. */
export class InvalidChallengeOptionError extends BaseError {
  override name = "InvalidChallengeOptionError";
  constructor({ option, expected }: { option: string; expected: string }) {
    super(`invalid ${option}: expected ${expected}`);
  }
}

/** The issued challenge could not be journaled, so the offer is withheld: it would not survive a restart (HTTP 503). */
export class ChallengeNotRecordedError extends BaseError {
  override name = "ChallengeNotRecordedError";
  constructor(parameters: { cause?: unknown } = {}) {
    super("the offer could not be recorded; retry shortly", parameters);
  }
}

/** Errors for prices that cannot be quoted. */

/**
 * Thrown when a list price is negative or the quoted amount would exceed the largest zERC20 transfer value
 * (2^248 - 1): such an offer could never be paid, since the token reverts above that bound.
 */
export class QuoteOutOfRangeError extends BaseError {
  override name = "QuoteOutOfRangeError";

  constructor({ reason }: { reason: string }) {
    super(`Cannot quote this price: ${reason}.`);
  }
}

/**
 * `SVC_POSEIDON_PATH` forces a burn-nonce search path this processor lacks: the daemon refuses to start rather
 * than derive on another path than the one asked for. Names the variable, never its value.
 */
export class UnsupportedPoseidonPathError extends BaseError {
  override name = "UnsupportedPoseidonPathError";
  /** The environment variable that asked for the path. */
  readonly variable: string;

  constructor({ variable, cause }: { variable: string; cause?: unknown }) {
    super(`${variable} forces a Poseidon search path this processor does not support; unset it or set it to auto.`, { cause });
    this.variable = variable;
  }
}
