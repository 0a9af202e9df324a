import { MalformedPayloadError } from "./errors.js";
import { classifyPayload } from "./classifyPayload.js";
import type { PermitPayload } from "./permitPayload.js";
import type { SelfTransferPayload } from "./selfTransferPayload.js";

/** Either svc-zerc20 payload shape, once the discrimination rule has accepted it. */
export type SchemePayload = PermitPayload | SelfTransferPayload;

/**
 * The throwing form of `classifyPayload`, for code where a malformed payload is a bug rather than a protocol
 * outcome (a payer checking what it is about to send, a test).
 */
export function parseSchemePayload(payload: unknown): SchemePayload {
  const result = classifyPayload(payload);
  if (result.kind === "malformed") throw new MalformedPayloadError({ detail: result.detail });
  return result.payload;
}
