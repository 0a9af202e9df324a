import { findJsonBoundsViolation } from "./jsonBounds.js";
import { MALFORMED_PAYLOAD, UNSUPPORTED_SCHEME } from "../reasons/reasonCodes.js";
import { type ClassifiedPayload, classifyPayload } from "./classifyPayload.js";
import { describeIssues } from "./describeIssues.js";
import { type FacilitatorRequest, FacilitatorRequestSchema } from "./facilitatorRequest.js";
import { SCHEME } from "./scheme.js";

/** A payload the discrimination rule accepted: permit or self-transfer. */
export type AcceptedPayload = Exclude<ClassifiedPayload, { kind: "malformed" }>;

/** The outcome of reading a `/verify` or `/settle` body, ready for the facilitator to act on. */
export type ClassifiedFacilitatorBody =
  | { kind: "x402"; request: FacilitatorRequest; payment: AcceptedPayload }
  | { kind: "legacy"; payment: AcceptedPayload }
  | { kind: "rejected"; reason: typeof MALFORMED_PAYLOAD | typeof UNSUPPORTED_SCHEME; detail: string };

/**
 * Reads a facilitator request body. A body with `paymentPayload` is the x402 shape; anything else is one of
 * the legacy direct `/settle` bodies, which are exactly the two payload shapes and go through the same
 * discrimination rule. Another scheme's requirements give `unsupported_scheme` rather than a parse error.
 * A body nested too deep or holding a non-finite number (`1e400`), even under an unknown key, is
 * `malformed_payload` here, before anything recurses into it or hashes it.
 *
 * @example
 * const body = classifyFacilitatorBody(ctx.request.body);
 * if (body.kind === "rejected") return { isValid: false, invalidReason: body.reason };
 */
export function classifyFacilitatorBody(body: unknown): ClassifiedFacilitatorBody {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { kind: "rejected", reason: MALFORMED_PAYLOAD, detail: "body is not an object" };
  }
  const outOfBounds = findJsonBoundsViolation(body);
  if (outOfBounds !== undefined) return { kind: "rejected", reason: MALFORMED_PAYLOAD, detail: `body ${outOfBounds}` };

  if (!Object.hasOwn(body, "paymentPayload")) {
    const payment = classifyPayload(body);
    return payment.kind === "malformed" ? { kind: "rejected", reason: payment.reason, detail: payment.detail } : { kind: "legacy", payment };
  }

  if (namesForeignScheme(body)) {
    return { kind: "rejected", reason: UNSUPPORTED_SCHEME, detail: `scheme is not ${SCHEME}` };
  }
  const parsed = FacilitatorRequestSchema.safeParse(body);
  if (!parsed.success) {
    return { kind: "rejected", reason: MALFORMED_PAYLOAD, detail: describeIssues(parsed.error) };
  }
  const payment = classifyPayload(parsed.data.paymentPayload.payload);
  return payment.kind === "malformed" ? { kind: "rejected", reason: payment.reason, detail: payment.detail } : { kind: "x402", request: parsed.data, payment };
}

/** True when the requirements or the echoed offer name a scheme other than ours. */
function namesForeignScheme(body: object): boolean {
  const requirements: unknown = Reflect.get(body, "paymentRequirements");
  const paymentPayload: unknown = Reflect.get(body, "paymentPayload");
  const accepted: unknown = isObject(paymentPayload) ? Reflect.get(paymentPayload, "accepted") : undefined;
  return [requirements, accepted].some((value) => {
    const scheme: unknown = isObject(value) ? Reflect.get(value, "scheme") : undefined;
    return typeof scheme === "string" && scheme !== SCHEME;
  });
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}
