/**
 * An independent check of our shapes against @x402/core 2.27, the code on the other end of every wire: what
 * our schemas accept must pass its validators (its own zod 3 schemas), and our types must be assignable to
 * its types. The verify/settle/supported parsers are not exported, so they are reached through the real
 * `HTTPFacilitatorClient` with `fetch` answering our bodies.
 */
import { HTTPFacilitatorClient } from "@x402/core/http";
import {
  isPaymentPayloadV2,
  isPaymentRequiredV2,
  isPaymentRequirementsV2,
  validatePaymentPayload,
  validatePaymentRequired,
  validatePaymentRequirements,
} from "@x402/core/schemas";
import type {
  PaymentPayload as CorePaymentPayload,
  PaymentRequirements as CorePaymentRequirements,
  SettleResponse as CoreSettleResponse,
  SupportedResponse as CoreSupportedResponse,
  VerifyResponse as CoreVerifyResponse,
} from "@x402/core/types";
import { afterEach, describe, expect, it, vi } from "vitest";

import {
  buildExtra,
  buildPaymentPayload,
  buildPaymentRequired,
  buildPermitPayload,
  buildRequirements,
  buildSettleResponse,
  buildSupportedResponse,
  buildVerifyResponse,
} from "../testing/builders.js";
import { PaymentPayloadSchema } from "./paymentPayload.js";
import { PaymentRequiredSchema } from "./paymentRequired.js";
import { PaymentRequirementsSchema } from "./paymentRequirements.js";
import { SettleResponseSchema } from "./settleResponse.js";
import { SupportedResponseSchema } from "./supportedResponse.js";
import { VerifyResponseSchema } from "./verifyResponse.js";

const requirementsSamples = [
  buildRequirements(),
  buildRequirements({ extra: buildExtra({ helper: undefined, deadline: undefined }) }),
  buildRequirements({ extra: buildExtra({ fee: { amount: "1000", bps: 10 }, futureField: 1 }), description: "x" }),
];

describe("our accepted shapes pass @x402/core/schemas", () => {
  it.each(requirementsSamples.map((sample, index) => [index, sample] as const))("PaymentRequirements sample %i", (_index, sample) => {
    const ours = PaymentRequirementsSchema.parse(sample);
    expect(isPaymentRequirementsV2(ours)).toBe(true);
    expect(() => validatePaymentRequirements(ours)).not.toThrow();
  });

  it.each([
    ["one offer", buildPaymentRequired()],
    ["all samples", buildPaymentRequired({ accepts: requirementsSamples, extensions: { bazaar: {} } })],
    ["no error text", buildPaymentRequired({ error: undefined })],
  ])("PaymentRequired with %s", (_label, sample) => {
    const ours = PaymentRequiredSchema.parse(sample);
    expect(isPaymentRequiredV2(ours)).toBe(true);
    expect(() => validatePaymentRequired(ours)).not.toThrow();
  });

  it.each([
    ["self-transfer", buildPaymentPayload()],
    ["permit", buildPaymentPayload({ payload: buildPermitPayload(), resource: undefined })],
  ])("PaymentPayload with a %s payload", (_label, sample) => {
    const ours = PaymentPayloadSchema.parse(sample);
    expect(isPaymentPayloadV2(ours)).toBe(true);
    expect(() => validatePaymentPayload(ours)).not.toThrow();
  });
});

describe("our answers pass @x402/core's facilitator client", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** Makes every `fetch` answer 200 with `body` as JSON, like a facilitator would. */
  function answerWith(body: unknown): void {
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify(body), { status: 200 }));
  }

  const client = new HTTPFacilitatorClient({ url: "http://facilitator.invalid" });
  const payment = buildPaymentPayload();

  it.each([
    ["valid", buildVerifyResponse()],
    ["invalid", { isValid: false, invalidReason: "challenge_expired" }],
  ])("VerifyResponse, %s", async (_label, sample) => {
    const ours = VerifyResponseSchema.parse(sample);
    answerWith(ours);
    await expect(client.verify(payment, payment.accepted)).resolves.toEqual(ours);
  });

  it.each([
    ["accepted", buildSettleResponse()],
    ["failed", buildSettleResponse({ success: false, transaction: "", errorReason: "pending_burn", extra: undefined })],
  ])("SettleResponse, %s", async (_label, sample) => {
    const ours = SettleResponseSchema.parse(sample);
    answerWith(ours);
    await expect(client.settle(payment, payment.accepted)).resolves.toEqual(ours);
  });

  it("SupportedResponse", async () => {
    const ours = SupportedResponseSchema.parse(buildSupportedResponse());
    answerWith(ours);
    await expect(client.getSupported()).resolves.toEqual(ours);
  });
});

describe("our types are assignable to @x402/core's", () => {
  it("compiles", () => {
    const requirements: CorePaymentRequirements = buildRequirements();
    const payment: CorePaymentPayload = buildPaymentPayload();
    const verify: CoreVerifyResponse = buildVerifyResponse();
    const settle: CoreSettleResponse = buildSettleResponse();
    const supported: CoreSupportedResponse = buildSupportedResponse();
    expect([requirements, payment, verify, settle, supported]).toHaveLength(5);
  });
});
