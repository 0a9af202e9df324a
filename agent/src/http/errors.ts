import { BaseError } from "@svc/scheme";

import { describeUrl } from "./describeUrl.js";

/** Thrown before a request (or a redirect hop) leaves when its host is not on `SVC_ALLOWED_HOSTS`. */
export class HostNotAllowedError extends BaseError {
  override name = "HostNotAllowedError";
  /** The refused host name. */
  readonly host: string;
  constructor({ url }: { url: URL }) {
    super(
      `${url.protocol === "http:" || url.protocol === "https:" ? `Host ${url.hostname} is` : `Scheme ${url.protocol} is`} not allowed (SVC_ALLOWED_HOSTS); nothing was sent to ${describeUrl(url)}.`,
    );
    this.host = url.hostname;
  }
}

/** Thrown when a provider does not answer within `SVC_TIMEOUT_MS`; the request may have arrived. */
export class HttpTimeoutError extends BaseError {
  override name = "HttpTimeoutError";
  constructor({ url, timeoutMs, cause }: { url: URL; timeoutMs: number; cause?: unknown }) {
    super(`No answer from ${describeUrl(url)} within ${timeoutMs} ms.`, { cause });
  }
}

/**
 * Thrown when the connection failed. `mayHaveBeenSent` is false only when the request provably never left
 * (refused connection, unknown host), which matters for a paid request: otherwise its outcome is unknown.
 */
export class HttpRequestFailedError extends BaseError {
  override name = "HttpRequestFailedError";
  /** False when the request provably never reached the server. */
  readonly mayHaveBeenSent: boolean;
  constructor({ url, cause, mayHaveBeenSent, code }: { url: URL; cause: unknown; mayHaveBeenSent: boolean; code: string | undefined }) {
    super(`The request to ${describeUrl(url)} failed${code === undefined ? "" : ` (${code})`}.`, { cause });
    this.mayHaveBeenSent = mayHaveBeenSent;
  }
}

/** Thrown when a provider redirects more often than the agent follows. */
export class TooManyRedirectsError extends BaseError {
  override name = "TooManyRedirectsError";
  constructor({ url, maxRedirects }: { url: URL; maxRedirects: number }) {
    super(`More than ${maxRedirects} redirects, last from ${describeUrl(url)}.`);
  }
}
