import { BaseError } from "../errors/base.js";

/**
 * Thrown when an offer cannot be paid through the gasless permit path: it lacks `extra.helper` or
 * `extra.deadline`. The payer must fail here rather than quietly fall back to a gas-paying transfer.
 */
export class PermitUnavailableError extends BaseError {
  override name = "PermitUnavailableError";
  /** The `extra` fields the offer is missing. */
  readonly missing: readonly ("helper" | "deadline")[];

  constructor({ missing }: { missing: readonly ("helper" | "deadline")[] }) {
    super("The offer does not support the gasless permit path.", {
      details: `missing extra.${missing.join(" and extra.")}`,
    });
    this.missing = missing;
  }
}

/** Thrown when signature bytes or `{v, r, s}` parts are not a valid secp256k1 signature; never quotes them. */
export class InvalidSignatureError extends BaseError {
  override name = "InvalidSignatureError";

  constructor({ cause }: { cause?: unknown } = {}) {
    super("Invalid signature: expected 65 bytes r || s || v with r and s in range and v 0, 1, 27 or 28.", { cause });
  }
}
