/**
 * Errors the HTTP layer raises itself. Each one that answers a request carries its status and the response
 * headers it needs, and a short message written by us: the error middleware sends that message verbatim, so
 * none of these may quote a request body, a header value or a secret.
 */
import { BaseError } from "../errors/base.js";
import { HttpAnswerError } from "../errors/httpAnswerError.js";

/** The request body is larger than the limit (HTTP 413). */
export class RequestBodyTooLargeError extends HttpAnswerError {
  override name = "RequestBodyTooLargeError";
  /** The limit in bytes. */
  readonly limitBytes: number;

  constructor({ limitBytes, cause }: { limitBytes: number; cause?: unknown }) {
    super(`request body exceeds ${limitBytes} bytes`, { status: 413, cause });
    this.limitBytes = limitBytes;
  }
}

/**
 * The request body is not JSON, or could not be read (HTTP 400). The parser's own message is not kept in the
 * short message because Node's JSON errors quote the input, which may hold a signature.
 */
export class MalformedRequestBodyError extends HttpAnswerError {
  override name = "MalformedRequestBodyError";

  constructor({ reason, cause }: { reason: "not_json" | "unreadable"; cause?: unknown }) {
    super(reason === "not_json" ? "request body is not valid JSON" : "request body could not be read", {
      status: 400,
      cause,
    });
  }
}

/** The request body uses a `Content-Encoding` the server cannot inflate (HTTP 415). */
export class UnsupportedContentEncodingError extends HttpAnswerError {
  override name = "UnsupportedContentEncodingError";

  constructor({ cause }: { cause?: unknown } = {}) {
    super("unsupported Content-Encoding; send identity, gzip, deflate or br", { status: 415, cause });
  }
}

/** A parsed request does not have the shape the route needs (HTTP 400); `reason` names the rule broken. */
export class InvalidRequestError extends HttpAnswerError {
  override name = "InvalidRequestError";

  constructor({ reason }: { reason: string }) {
    super(`invalid request: ${reason}`, { status: 400 });
  }
}

/** Which per-key limit refused a request. */
export type RateLimitScope = "shared" | "challenge_issuance";

/** A per-client rate limit refused the request (HTTP 429 with `Retry-After`). */
export class RateLimitExceededError extends HttpAnswerError {
  override name = "RateLimitExceededError";
  /** The limit that was exceeded. */
  readonly scope: RateLimitScope;
  /** Whole seconds after which a retry can succeed. */
  readonly retryAfterSeconds: number;

  constructor({ scope, retryAfterSeconds }: { scope: RateLimitScope; retryAfterSeconds: number }) {
    super(
      scope === "shared" ? `rate limit exceeded; retry after ${retryAfterSeconds} s` : `challenge issuance rate exceeded; retry after ${retryAfterSeconds} s`,
      { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
    );
    this.scope = scope;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * An `/admin/*` request without the right bearer token, or any admin request when no token is configured
 * (HTTP 401). One message and one header set for every case, so the answer does not reveal which case it is.
 */
export class AdminUnauthorizedError extends HttpAnswerError {
  override name = "AdminUnauthorizedError";

  /** `challenge` is the `WWW-Authenticate` value: `Bearer` for the API, a Basic realm where a browser should prompt. */
  constructor({ challenge = "Bearer" }: { challenge?: string } = {}) {
    super("unauthorized", { status: 401, headers: { "WWW-Authenticate": challenge } });
  }
}

/** No route serves this path (HTTP 404). */
export class RouteNotFoundError extends HttpAnswerError {
  override name = "RouteNotFoundError";

  constructor() {
    super("not found", { status: 404 });
  }
}

/** The path exists but not for this method (HTTP 405 with `Allow`). */
export class MethodNotAllowedError extends HttpAnswerError {
  override name = "MethodNotAllowedError";

  constructor({ allow }: { allow: string }) {
    super("method not allowed", { status: 405, headers: allow ? { Allow: allow } : {} });
  }
}

/** `listen.trusted_proxies` holds an entry the proxy trust setting cannot compile. */
export class TrustedProxiesError extends BaseError {
  override name = "TrustedProxiesError";

  constructor({ cause }: { cause?: unknown } = {}) {
    super("listen.trusted_proxies holds an entry that is not an IP address or CIDR block", { cause });
  }
}

/** The HTTP server could not bind its address (port taken, host not local, permission). */
export class ListenError extends BaseError {
  override name = "ListenError";
  /** The host that was requested. */
  readonly host: string;
  /** The port that was requested. */
  readonly port: number;

  constructor({ host, port, cause }: { host: string; port: number; cause?: unknown }) {
    const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined;
    super(`cannot listen on ${host}:${port}`, { cause, details: code });
    this.host = host;
    this.port = port;
  }
}

/**
 * A money-endpoint request without a valid provider key while `[providers.*]` is configured (HTTP 401). One
 * message for a missing and a wrong key.
 */
export class ProviderUnauthenticatedError extends HttpAnswerError {
  override name = "ProviderUnauthenticatedError";

  constructor() {
    super("provider authentication required: send Authorization: Bearer <provider key>", {
      status: 401,
      headers: { "WWW-Authenticate": "Bearer" },
    });
  }
}

/** `GET /admin/withdrawal-witness/:challengeNonce` for a payment this daemon never accepted. */
export class UnknownPaymentError extends HttpAnswerError {
  override name = "UnknownPaymentError";

  constructor() {
    super("no accepted payment has this challenge nonce", { status: 404 });
  }
}
