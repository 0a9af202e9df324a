/**
 * What the `start_failed` line says about a startup failure: the error's name, its one-line cause, and the
 * two facts an operator needs that library errors bury in their cause chain: the system error code (such as
 * `EADDRINUSE` or `ECONNREFUSED`) and the URL that failed, credential-redacted.
 */
import { redactUrl } from "../config/redactUrl.js";
import { describeError } from "./describeError.js";

/** The fields of a `start_failed` event. */
export type StartFailure = {
  /** The error's class name, e.g. `ListenError`, `HttpRequestError`. */
  error: string;
  /** One line: a named error's own message, else the first line of the library's message. */
  cause: string;
  /** The failing URL with credentials masked, when an error in the chain names one. */
  url?: string;
  /** The first system error code in the cause chain. */
  errno?: string;
};

// A cause chain is short; the bound only guards against a cycle.
const MAX_CAUSE_DEPTH = 8;

/** Describes `error` for the `start_failed` event and the one stderr line. */
export function describeStartFailure(error: unknown): StartFailure {
  let url: string | undefined;
  let errno: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === "object" && current !== null; depth += 1) {
    const code: unknown = Reflect.get(current, "code");
    if (errno === undefined && typeof code === "string" && /^E[A-Z0-9_]+$/.test(code)) errno = code;
    const candidate: unknown = Reflect.get(current, "url");
    if (url === undefined && typeof candidate === "string" && URL.canParse(candidate)) url = redactUrl(candidate);
    current = Reflect.get(current, "cause");
  }
  return {
    error: error instanceof Error ? error.name : "unknown",
    cause: describeError(error),
    ...(url === undefined ? {} : { url }),
    ...(errno === undefined ? {} : { errno }),
  };
}

/** The stderr line: the cause, then the URL and errno when known. */
export function formatStartFailure(failure: StartFailure): string {
  const facts = [failure.url, failure.errno].filter((fact) => fact !== undefined);
  return `facilitator failed to start: ${failure.cause}${facts.length === 0 ? "" : ` (${facts.join(", ")})`}`;
}
