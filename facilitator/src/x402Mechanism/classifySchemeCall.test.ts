/**
 * The mechanism's edge: `(payload, requirements)` from the official x402Facilitator read as the body our HTTP
 * routes would receive, and every input HTTP could not carry answered with a reason, never a throw.
 */
import { classifyFacilitatorBody } from "@svc/scheme";
import { buildPaymentPayload, buildPermitPayload, buildRequirements, buildSelfTransferPayload } from "@svc/scheme/testing";
import { describe, expect, it } from "vitest";
import { MAX_REQUEST_BODY_BYTES } from "../http/readJsonBody.js";
import { classifySchemeCall } from "./classifySchemeCall.js";

/** The body @x402/core's HTTPFacilitatorClient would POST for this call. */
const httpBody = (payload: unknown, requirements: unknown) =>
  JSON.parse(JSON.stringify({ x402Version: 2, paymentPayload: payload, paymentRequirements: requirements }));

describe("classifySchemeCall", () => {
  it.each([
    ["self-transfer", buildPaymentPayload()],
    ["permit", buildPaymentPayload({ payload: buildPermitPayload() })],
  ])("reads a %s payment exactly as the HTTP route reads its body", (_label, payload) => {
    const requirements = buildRequirements();
    const classified = classifySchemeCall(payload, requirements);
    expect(classified.kind).toBe("x402");
    expect(classified).toEqual(classifyFacilitatorBody(httpBody(payload, requirements)));
  });

  it("writes bigints as decimal strings, as core's HTTP client does", () => {
    const payload = { ...buildPaymentPayload(), payload: { ...buildPermitPayload(), permit: { ...buildPermitPayload().permit, value: 10n ** 18n } } };
    const classified = classifySchemeCall(payload, buildRequirements());
    expect(classified.kind === "x402" && classified.payment.kind === "permit" && classified.payment.payload.permit.value).toBe("1000000000000000000");
  });

  it("names another scheme unsupported_scheme, as the route does", () => {
    const accepted = { ...buildRequirements(), scheme: "exact" };
    expect(classifySchemeCall(buildPaymentPayload({ accepted: accepted as never }), buildRequirements())).toMatchObject({
      kind: "rejected",
      reason: "unsupported_scheme",
    });
  });

  const cyclic: Record<string, unknown> = { ...buildSelfTransferPayload() };
  cyclic.self = cyclic;
  const throwingGetter = Object.defineProperty({ ...buildSelfTransferPayload() }, "burnTxHash", {
    enumerable: true,
    get: () => {
      throw new TypeError("getter says no");
    },
  });
  const hostileProxy = new Proxy(
    {},
    {
      get: () => {
        throw new TypeError("trap");
      },
      ownKeys: () => {
        throw new TypeError("trap");
      },
    },
  );
  let deep: unknown = {};
  for (let level = 0; level < 100_000; level++) deep = { deep };

  it.each([
    ["a cycle", { ...buildPaymentPayload(), payload: cyclic }, /not serialisable/],
    ["a getter that throws", { ...buildPaymentPayload(), payload: throwingGetter }, /not serialisable/],
    ["a proxy whose every trap throws", hostileProxy, /not serialisable/],
    ["nesting too deep to serialise", { ...buildPaymentPayload(), payload: deep }, /not serialisable|nests deeper/],
    [
      "a body over the HTTP limit",
      { ...buildPaymentPayload(), payload: { ...buildSelfTransferPayload(), pad: "x".repeat(MAX_REQUEST_BODY_BYTES) } },
      /larger than/,
    ],
    ["a payload that is a string", { ...buildPaymentPayload(), payload: "0xdeadbeef" }, /payload/],
    [
      "a partial permit",
      { ...buildPaymentPayload(), payload: { challengeNonce: buildSelfTransferPayload().challengeNonce, payer: buildPermitPayload().payer } },
      /partial permit/,
    ],
    ["null", null, /./],
    ["x402 version 1", { ...buildPaymentPayload(), x402Version: 1 }, /./],
  ])("answers malformed_payload for %s, without throwing", (_label, payload, detail) => {
    const classified = classifySchemeCall(payload, buildRequirements());
    expect(classified).toMatchObject({ kind: "rejected", reason: "malformed_payload" });
    expect(classified.kind === "rejected" && classified.detail).toMatch(detail);
  });

  it("names the rule, never the content, when a getter throws", () => {
    const payload = { ...buildPaymentPayload(), payload: throwingGetter };
    const classified = classifySchemeCall(payload, buildRequirements());
    expect(classified.kind === "rejected" && classified.detail).toBe("body is not serialisable as JSON (TypeError)");
  });
});
