import { fetch } from "undici";

import { isHostAllowed } from "../policy/isHostAllowed.js";
import type { Policy } from "../policy/policy.js";
import { HostNotAllowedError, HttpRequestFailedError, HttpTimeoutError, TooManyRedirectsError } from "./errors.js";

/** Redirects an unpaid request follows by default. */
export const DEFAULT_MAX_REDIRECTS = 5;

/** Connection errors raised before any byte of the request was written. */
const NEVER_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

/** Inputs to `fetchWithPolicy`. */
export type FetchWithPolicyParameters = {
  url: URL;
  allowedHosts: Policy["allowedHosts"];
  /** Timeout of each hop, covering the response body. */
  timeoutMs: number;
  headers?: Record<string, string> | undefined;
  /** `GET` when omitted. */
  method?: string | undefined;
  /** A text body, sent with every hop that keeps the method (307, 308). */
  body?: string | undefined;
  /** How many redirects to follow; 0 returns a redirect response as it is. */
  maxRedirects?: number | undefined;
};

/** A fully read response and the URL that produced it. */
export type PolicyResponse = {
  /** The URL of the last hop. */
  url: URL;
  status: number;
  headers: Headers;
  body: Buffer;
};

/**
 * Requests `url` (GET unless `method` says otherwise) through undici with redirects handled here, not by the HTTP client, so that the host allowlist
 * is checked for the first request and again for every redirect target before that hop leaves. Throws
 * `HostNotAllowedError` (nothing sent to that host), `HttpTimeoutError`, `HttpRequestFailedError` or
 * `TooManyRedirectsError`. Never retries.
 *
 * @example
 * const response = await fetchWithPolicy({ url: new URL(target), allowedHosts: policy.allowedHosts, timeoutMs: policy.timeoutMs });
 */
export async function fetchWithPolicy(parameters: FetchWithPolicyParameters): Promise<PolicyResponse> {
  const maxRedirects = parameters.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let url = parameters.url;
  let hop = parameters;
  for (let redirects = 0; ; redirects++) {
    if (!isHostAllowed(parameters.allowedHosts, url)) throw new HostNotAllowedError({ url });
    const response = await fetchOnce(url, hop);
    const location = response.headers.get("location");
    if (maxRedirects === 0 || !isRedirect(response.status) || location === null) return response;
    if (redirects >= maxRedirects) throw new TooManyRedirectsError({ url, maxRedirects });
    url = new URL(location, url);
    // As browsers do: 303 (and 301/302 after anything but GET) continue as a GET without the body.
    const keepsMethod = response.status === 307 || response.status === 308 || (hop.method ?? "GET") === "GET";
    if (!keepsMethod) hop = { ...hop, method: "GET", body: undefined };
  }
}

async function fetchOnce(url: URL, parameters: FetchWithPolicyParameters): Promise<PolicyResponse> {
  const signal = AbortSignal.timeout(parameters.timeoutMs);
  try {
    const response = await fetch(url, {
      method: parameters.method ?? "GET",
      headers: parameters.headers ?? {},
      body: parameters.body,
      redirect: "manual",
      signal,
    });
    const body = Buffer.from(await response.arrayBuffer());
    return { url, status: response.status, headers: response.headers, body };
  } catch (cause) {
    if (signal.aborted) throw new HttpTimeoutError({ url, timeoutMs: parameters.timeoutMs, cause });
    const code = errorCode(cause);
    throw new HttpRequestFailedError({ url, cause, code, mayHaveBeenSent: code === undefined || !NEVER_SENT_CODES.has(code) });
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** The system or undici error code of a fetch failure, found on the error or its cause chain. */
function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth++) {
    const code: unknown = Reflect.get(current, "code");
    if (typeof code === "string") return code;
  }
  return undefined;
}
