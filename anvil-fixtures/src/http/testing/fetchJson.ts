/**
 * JSON over HTTP for the service tests: the status, the raw text and the parsed body (undefined when empty,
 * the text itself when it is not JSON, such as Koa's plain "Not Found").
 */

/** What a request answered. */
export type JsonAnswer = { status: number; text: string; body: unknown };

/** `GET url`. */
export async function getJson(url: string): Promise<JsonAnswer> {
  return answer(await fetch(url));
}

/** `POST url` with `body` as JSON. */
export async function postJson(url: string, body: unknown): Promise<JsonAnswer> {
  return answer(await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
}

async function answer(response: Response): Promise<JsonAnswer> {
  const text = await response.text();
  const isJson = response.headers.get("content-type")?.includes("application/json") === true;
  return { status: response.status, text, body: text === "" ? undefined : isJson ? JSON.parse(text) : text };
}
