/**
 * How the history core answers: a value, or a refusal as data. Routes map each refusal kind to one HTTP
 * status (`malformed` 400, `unauthorized` 401, `forbidden` 403, `not_found` 404, `conflict` 409, `capacity`
 * 503), so the core knows nothing of HTTP and a refusal is never an exception.
 */

/** Why the core refused. */
export type HistoryRefusalKind = "malformed" | "unauthorized" | "forbidden" | "not_found" | "conflict" | "capacity";

/** A refusal with a short message written by us, safe to send to the client. */
export type HistoryRefusal = { ok: false; refusal: HistoryRefusalKind; message: string };

/** A value or a refusal. */
export type HistoryOutcome<T> = { ok: true; value: T } | HistoryRefusal;

/** Builds a refusal. */
export function refuse(refusal: HistoryRefusalKind, message: string): HistoryRefusal {
  return { ok: false, refusal, message };
}
