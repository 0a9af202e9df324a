import { classifyFacilitatorBody, MALFORMED_PAYLOAD, type ClassifiedFacilitatorBody } from "@svc/scheme";
import { MAX_REQUEST_BODY_BYTES } from "../http/readJsonBody.js";

/**
 * Reads the `(payload, requirements)` the official `x402Facilitator` hands a mechanism as the body our
 * `POST /verify` and `POST /settle` would have received for them: the body @x402/core's
 * `HTTPFacilitatorClient` sends (`x402Version` from the payload, bigints as decimal strings, JSON), no larger
 * than the HTTP limit, then through the same classifier the routes use. So an in-process call and an HTTP call
 * with the same payment get the same answer. What HTTP could not carry (a cycle, a getter that throws, nesting
 * too deep to serialise) or would refuse as too large is `malformed_payload` here, never an exception.
 *
 * @example
 * const body = classifySchemeCall(paymentPayload, paymentRequirements);
 * if (body.kind === "rejected") return { isValid: false, invalidReason: body.reason };
 */
export function classifySchemeCall(payload: unknown, requirements: unknown): ClassifiedFacilitatorBody {
  let body: unknown;
  try {
    const x402Version: unknown = typeof payload === "object" && payload !== null ? Reflect.get(payload, "x402Version") : undefined;
    const json = JSON.stringify({ x402Version, paymentPayload: payload, paymentRequirements: requirements }, (_key, value: unknown) =>
      typeof value === "bigint" ? value.toString() : value,
    );
    if (Buffer.byteLength(json) > MAX_REQUEST_BODY_BYTES) return rejected(`body is larger than ${MAX_REQUEST_BODY_BYTES} bytes`);
    body = JSON.parse(json);
  } catch (error) {
    return rejected(`body is not serialisable as JSON (${error instanceof Error ? error.name : typeof error})`);
  }
  return classifyFacilitatorBody(body);
}

function rejected(detail: string): ClassifiedFacilitatorBody {
  return { kind: "rejected", reason: MALFORMED_PAYLOAD, detail };
}
