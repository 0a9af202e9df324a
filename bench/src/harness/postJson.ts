/** Times one JSON POST (or GET) to a facilitator the way its HTTP clients call it. */

/** The status, parsed body and wall time of one call. */
export type TimedResponse = { status: number; body: unknown; ms: number };

/** POSTs `body` as JSON to `url` and reads the JSON answer; `ms` covers request and body. */
export async function postJson(url: string, body: unknown): Promise<TimedResponse> {
  const started = performance.now();
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const parsed: unknown = await response.json().catch(() => undefined);
  return { status: response.status, body: parsed, ms: performance.now() - started };
}

/** GETs `url` and reads the JSON answer; `ms` covers request and body. */
export async function getJson(url: string): Promise<TimedResponse> {
  const started = performance.now();
  const response = await fetch(url);
  const parsed: unknown = await response.json().catch(() => undefined);
  return { status: response.status, body: parsed, ms: performance.now() - started };
}

/** Reads a boolean field of a JSON object body (`isValid`, `success`), false otherwise. */
export function booleanField(body: unknown, field: string): boolean {
  return typeof body === "object" && body !== null && Object.getOwnPropertyDescriptor(body, field)?.value === true;
}
