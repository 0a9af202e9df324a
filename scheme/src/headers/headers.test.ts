import {
  decodePaymentRequiredHeader as coreDecodePaymentRequired,
  decodePaymentResponseHeader as coreDecodePaymentResponse,
  decodePaymentSignatureHeader as coreDecodePaymentSignature,
  encodePaymentRequiredHeader as coreEncodePaymentRequired,
  encodePaymentResponseHeader as coreEncodePaymentResponse,
  encodePaymentSignatureHeader as coreEncodePaymentSignature,
} from "@x402/core/http";
import { describe, expect, it } from "vitest";

import { InvalidHeaderError } from "./errors.js";
import { buildExtra, buildPaymentPayload, buildPermitPayload, buildRequirements, buildResourceInfo, buildSettleResponse } from "../testing/builders.js";
import type { PaymentRequired } from "../wire/paymentRequired.js";
import { X402_VERSION } from "../wire/scheme.js";
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from "./paymentRequiredHeader.js";
import { decodePaymentResponseHeader, encodePaymentResponseHeader } from "./paymentResponseHeader.js";
import { decodePaymentSignatureHeader, encodePaymentSignatureHeader } from "./paymentSignatureHeader.js";

// Non-ASCII text and unknown keys are where a hand-rolled codec would first drift from @x402/core's.
const requirements = buildRequirements({
  description: "Météo ☀ 天気",
  extra: buildExtra({ fee: { amount: "10", bps: 5 }, futureField: { a: [1, 2] } }),
});
// Spelled out with only svc-zerc20 offers so the value also has @x402/core's narrower `accepts` type.
const paymentRequired = {
  x402Version: X402_VERSION,
  error: "Payment required",
  resource: buildResourceInfo({ description: "Météo ☀ 天気" }),
  accepts: [requirements],
} satisfies PaymentRequired;
const paymentPayload = buildPaymentPayload({ accepted: requirements, payload: buildPermitPayload() });
const settleResponse = buildSettleResponse({ futureField: "kept" });

describe("PAYMENT-REQUIRED", () => {
  it("encodes exactly as @x402/core does", () => {
    expect(encodePaymentRequiredHeader(paymentRequired)).toBe(coreEncodePaymentRequired(paymentRequired));
  });

  it("round-trips, keeping unknown keys", () => {
    expect(decodePaymentRequiredHeader(encodePaymentRequiredHeader(paymentRequired))).toEqual(paymentRequired);
  });

  it("is standard padded base64 that @x402/core decodes to the same object", () => {
    const header = encodePaymentRequiredHeader(paymentRequired);
    expect(header).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(header.length % 4).toBe(0);
    expect(coreDecodePaymentRequired(header)).toEqual(paymentRequired);
  });
});

describe("PAYMENT-SIGNATURE", () => {
  it("encodes exactly as @x402/core does", () => {
    expect(encodePaymentSignatureHeader(paymentPayload)).toBe(coreEncodePaymentSignature(paymentPayload));
  });

  it("round-trips, keeping the echoed offer intact", () => {
    const decoded = decodePaymentSignatureHeader(encodePaymentSignatureHeader(paymentPayload));
    expect(decoded).toEqual(paymentPayload);
    expect(decoded.accepted).toEqual(requirements);
  });

  it("decodes what @x402/core encodes", () => {
    expect(decodePaymentSignatureHeader(coreEncodePaymentSignature(paymentPayload))).toEqual(paymentPayload);
    expect(coreDecodePaymentSignature(encodePaymentSignatureHeader(paymentPayload))).toEqual(paymentPayload);
  });
});

describe("PAYMENT-RESPONSE", () => {
  it("encodes exactly as @x402/core does, dropping the server-only extensionResponses", () => {
    const withServerOnly = { ...settleResponse, extensionResponses: { bazaar: { status: "ok" } } };
    const header = encodePaymentResponseHeader(withServerOnly);
    expect(header).toBe(coreEncodePaymentResponse(withServerOnly));
    expect(decodePaymentResponseHeader(header)).toEqual(settleResponse);
  });

  it("round-trips a failure", () => {
    const failure = buildSettleResponse({ success: false, transaction: "", errorReason: "pending_burn", extra: undefined });
    expect(decodePaymentResponseHeader(encodePaymentResponseHeader(failure))).toEqual(failure);
    expect(coreDecodePaymentResponse(encodePaymentResponseHeader(failure))).toEqual(failure);
  });
});

describe("decoding errors", () => {
  const valid = encodePaymentSignatureHeader(paymentPayload);

  it.each([
    ["the empty string", ""],
    ["non-base64 characters", `${valid.slice(0, 8)}!${valid.slice(9)}`],
    ["URL-safe base64", "-_-_"],
    ["misplaced padding", "ab=c"],
    ["a truncated value", valid.slice(0, 40)],
    ["whitespace", ` ${valid}`],
    ["base64 of non-JSON", Buffer.from("hello").toString("base64")],
    ["base64 of invalid UTF-8", Buffer.from([0xff, 0xfe, 0x7b, 0x7d]).toString("base64")],
    ["base64 of a v1 payment", Buffer.from(JSON.stringify({ x402Version: 1, scheme: "exact" })).toString("base64")],
  ])("throws InvalidHeaderError on %s", (_label, value) => {
    expect(() => decodePaymentSignatureHeader(value)).toThrow(InvalidHeaderError);
  });

  it("accepts unpadded input, as @x402/core's decoder does", () => {
    const unpadded = valid.replace(/=+$/, "");
    expect(decodePaymentSignatureHeader(unpadded)).toEqual(coreDecodePaymentSignature(unpadded));
  });

  it("names the header and the failing fields, not their values", () => {
    const tampered = encodePaymentSignatureHeader({ ...paymentPayload, accepted: { ...requirements, amount: "1.5" } });
    expect(() => decodePaymentSignatureHeader(tampered)).toThrowErrorMatchingInlineSnapshot(`
      [InvalidHeaderError: Invalid PAYMENT-SIGNATURE header.

      Details: accepted.amount: expected a plain non-negative decimal integer string]
    `);
  });

  it("applies the same schemas to the other two headers", () => {
    const v1 = Buffer.from(JSON.stringify({ x402Version: 1 })).toString("base64");
    expect(() => decodePaymentRequiredHeader(v1)).toThrow(/PAYMENT-REQUIRED/);
    expect(() => decodePaymentResponseHeader(v1)).toThrow(/PAYMENT-RESPONSE/);
  });
});
