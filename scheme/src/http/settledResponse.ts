// Statuses whose Response may carry no body (the Fetch standard's null body statuses).
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A `Response` whose body was read already: `text()` and `json()` answer from the string, and `body` is null, so
 * viem reads it with `text()` (its path for a body without a stream) instead of through a web stream reader.
 * A null-body status answers an empty text, whatever came.
 */
export function settledResponse(text: string, init: ResponseInit & { status: number }): Response {
  const body = NULL_BODY_STATUSES.has(init.status) ? "" : text;
  return Object.defineProperties(new Response(null, init), {
    body: { value: null },
    text: { value: () => Promise.resolve(body) },
    json: { value: () => Promise.resolve().then(() => JSON.parse(body) as unknown) },
  });
}
