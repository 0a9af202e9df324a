import { BaseError } from "../errors/base.js";

/** Quotes untrusted input briefly, so an oversized or hostile value cannot flood a log line. */
function quoteShort(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

/** Thrown when a string is not a CAIP-2 `eip155:<chainId>` identifier with a usable chain id. */
export class InvalidNetworkError extends BaseError {
  override name = "InvalidNetworkError";
  /** The rejected value, as given. */
  readonly network: string;

  constructor({ network }: { network: string }) {
    super(`Invalid network ${quoteShort(network)}: expected eip155:<chainId>.`);
    this.network = network;
  }
}

/**
 * Thrown when a payment payload is neither a complete permit payload nor a self-transfer payload; `detail`
 * names the offending fields but never their values, because they include signatures.
 */
export class MalformedPayloadError extends BaseError {
  override name = "MalformedPayloadError";

  constructor({ detail }: { detail: string }) {
    super("Malformed svc-zerc20 payment payload.", { details: detail });
  }
}

/** A value cannot be written as RFC 8785 canonical JSON (a function, `undefined`, a non-finite number). */
export class CanonicalJsonError extends BaseError {
  override name = "CanonicalJsonError";

  constructor({ reason, cause }: { reason?: string; cause?: unknown } = {}) {
    super(`value cannot be written as canonical JSON (RFC 8785)${reason === undefined ? "" : `: it ${reason}`}`, { cause });
  }
}
