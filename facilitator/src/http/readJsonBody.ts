import { bodyParser } from "@koa/bodyparser";

import { MalformedRequestBodyError, RequestBodyTooLargeError, UnsupportedContentEncodingError } from "./errors.js";
import type { HttpMiddleware } from "./httpState.js";

/** Largest request body accepted, after any `Content-Encoding` is inflated; facilitator bodies are a few KiB. */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;

/**
 * Reads the request body as JSON into `ctx.request.body`. Every body is parsed as JSON whatever its
 * `Content-Type` says, because every facilitator body is JSON and a client that forgot the header should not
 * see a confusing "missing field"; this also means the size limit applies to every body this middleware
 * reads. A body above {@link MAX_REQUEST_BODY_BYTES} is refused (413) without being buffered past the limit;
 * anything that is not a JSON object or array is 400. An empty body reads as `{}`. Mount it after the rate
 * limits, so a throttled client cannot make us read 64 KiB.
 */
export const readJsonBody: HttpMiddleware = bodyParser({
  enableTypes: ["json"],
  detectJSON: () => true,
  jsonLimit: MAX_REQUEST_BODY_BYTES,
  jsonStrict: true,
  onError: (error) => {
    throw bodyError(error);
  },
});

/**
 * Maps a body-reading failure (raw-body, inflation, zlib, JSON.parse) to our named errors. A failure without
 * a 5xx status is the client's (aborted upload, wrong Content-Length, corrupt gzip), so it is a 400.
 */
function bodyError(error: unknown): unknown {
  const status = statusOf(error);
  if (status === 413) return new RequestBodyTooLargeError({ limitBytes: MAX_REQUEST_BODY_BYTES, cause: error });
  if (status === 415) return new UnsupportedContentEncodingError({ cause: error });
  if (error instanceof SyntaxError) return new MalformedRequestBodyError({ reason: "not_json", cause: error });
  if (status !== undefined && status >= 500) return error;
  return new MalformedRequestBodyError({ reason: "unreadable", cause: error });
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const status: unknown = Reflect.get(error, "status") ?? Reflect.get(error, "statusCode");
  return typeof status === "number" ? status : undefined;
}
