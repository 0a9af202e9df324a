import type { z } from "zod";

import { InvalidHeaderError } from "./errors.js";
import { describeIssues } from "../wire/describeIssues.js";

/** The alphabet check @x402/core applies before decoding; anything it refuses, we refuse too. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Encodes a value the way @x402/core's header encoders do: `JSON.stringify`, UTF-8, standard padded base64.
 * Byte-for-byte equality matters because the other side may be the official SDK.
 */
export function encodeBase64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64");
}

/**
 * Decodes a header value through a wire schema, throwing `InvalidHeaderError` naming the header. It accepts
 * what @x402/core's decoder (`atob`) accepts, unpadded input included, and nothing more: a bare `Buffer.from`
 * would silently skip junk characters.
 */
export function decodeBase64Json<Schema extends z.ZodType>(header: string, value: string, schema: Schema): z.infer<Schema> {
  // Padding must complete a 4-character group, and one leftover character cannot encode a byte.
  const misPadded = value.includes("=") ? value.length % 4 !== 0 : value.length % 4 === 1;
  if (!BASE64.test(value) || misPadded) {
    throw new InvalidHeaderError({ header, details: "not standard base64" });
  }
  let json: unknown;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(value, "base64"));
    json = JSON.parse(text);
  } catch (cause) {
    throw new InvalidHeaderError({ header, details: "not base64 of UTF-8 JSON", cause });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new InvalidHeaderError({ header, details: describeIssues(parsed.error) });
  return parsed.data;
}
