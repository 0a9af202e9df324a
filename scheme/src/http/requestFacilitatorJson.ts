import { parseJsonText } from "../wire/parseJsonText.js";

/** Why a request to the facilitator brought no answer to read: the failures every facilitator client shares. */
export type FacilitatorRequestFailure =
  | { kind: "unreachable" }
  | { kind: "timeout"; timeoutMs: number }
  | { kind: "refused"; status: number; facilitatorError: string | undefined };

/** One JSON request to the facilitator. */
export type RequestFacilitatorJsonParameters = {
  /** The injected (or global) `fetch`. */
  fetch: typeof fetch;
  url: string;
  /** Method, headers and body; the signal is this function's own, bounded by `timeoutMs`. */
  init: Omit<RequestInit, "signal">;
  /** Bound on the whole exchange, the body included, in milliseconds. */
  timeoutMs: number;
};

/** A 2xx answer's body (`undefined` when it is not JSON), or why there is none; `cause` is the thrown error, if any. */
export type RequestFacilitatorJsonReturnType = { ok: true; json: unknown } | { ok: false; failure: FacilitatorRequestFailure; cause?: unknown };

/**
 * Sends one request to the facilitator and reads its answer as JSON. A failure is returned, never thrown, so
 * each client wraps it in its own named error; the answer's shape is the caller's to check.
 *
 * @example
 * const answer = await requestFacilitatorJson({ fetch, url, init: { method: "GET" }, timeoutMs: 10_000 });
 * if (!answer.ok) throw new HistoryRequestError({ failure: answer.failure, path, cause: answer.cause });
 */
export async function requestFacilitatorJson(parameters: RequestFacilitatorJsonParameters): Promise<RequestFacilitatorJsonReturnType> {
  let status: number;
  let text: string;
  try {
    const response = await parameters.fetch(parameters.url, { ...parameters.init, signal: AbortSignal.timeout(parameters.timeoutMs) });
    status = response.status;
    // The body is read under the same deadline, so a facilitator that stalls mid-answer still times out.
    text = await response.text();
  } catch (cause) {
    const failure: FacilitatorRequestFailure = isTimeout(cause) ? { kind: "timeout", timeoutMs: parameters.timeoutMs } : { kind: "unreachable" };
    return { ok: false, failure, cause };
  }
  const json = parseJsonText(text);
  if (status < 200 || status > 299) return { ok: false, failure: { kind: "refused", status, facilitatorError: errorText(json) } };
  return { ok: true, json };
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** The facilitator's own `{ error }` text, which it writes to be safe to show to a client. */
function errorText(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const error: unknown = Reflect.get(body, "error");
  return typeof error === "string" && error !== "" ? error : undefined;
}
