import { describe, expect, it } from "vitest";

import { buildPaymentPayload, buildPermitPayload, buildRequirements } from "../testing/builders.js";
import { PaymentPayloadSchema } from "./paymentPayload.js";
import { PermitPayloadSchema } from "./permitPayload.js";
import { SelfTransferPayloadSchema } from "./selfTransferPayload.js";

describe("PaymentPayloadSchema", () => {
  it("accepts a self-transfer payment unchanged", () => {
    const payment = buildPaymentPayload();
    expect(PaymentPayloadSchema.parse(payment)).toEqual(payment);
  });

  it("accepts a permit payment without resource", () => {
    const payment = buildPaymentPayload({ payload: buildPermitPayload(), resource: undefined });
    expect(PaymentPayloadSchema.parse(payment)).toEqual(payment);
  });

  it("leaves the payload shape to classifyPayload", () => {
    const payment = buildPaymentPayload({ payload: { anything: true } });
    expect(PaymentPayloadSchema.safeParse(payment).success).toBe(true);
  });

  it.each([
    ["x402 version 1", { x402Version: 1 }],
    ["no accepted", { accepted: undefined }],
    ["an accepted offer of another scheme", { accepted: { ...buildRequirements(), scheme: "exact" } }],
    ["a string payload", { payload: "0xdeadbeef" }],
    ["no payload", { payload: undefined }],
  ])("rejects %s", (_label, overrides) => {
    expect(PaymentPayloadSchema.safeParse({ ...buildPaymentPayload(), ...overrides }).success).toBe(false);
  });
});

describe("PermitPayloadSchema", () => {
  it("accepts a permit payload unchanged", () => {
    const payload = buildPermitPayload();
    expect(PermitPayloadSchema.parse(payload)).toEqual(payload);
  });

  const permit = buildPermitPayload().permit;
  it.each([
    ["v = 0", { permit: { ...permit, v: 0 } }],
    ["v as a string", { permit: { ...permit, v: "27" } }],
    ["a numeric value", { permit: { ...permit, value: 1 } }],
    ["a hex nonce", { permit: { ...permit, nonce: "0x0" } }],
    ["a short r", { permit: { ...permit, r: "0x01" } }],
    ["a 64-byte burnAuthSig", { burnAuthSig: `0x${"11".repeat(64)}` }],
    ["a non-address payer", { payer: "alice" }],
  ])("rejects %s", (_label, overrides) => {
    expect(PermitPayloadSchema.safeParse({ ...buildPermitPayload(), ...overrides }).success).toBe(false);
  });
});

describe("SelfTransferPayloadSchema", () => {
  it.each([
    ["a short burnTxHash", { challengeNonce: `0x${"00".repeat(32)}`, burnTxHash: "0x12" }],
    ["no challengeNonce", { burnTxHash: `0x${"00".repeat(32)}` }],
  ])("rejects %s", (_label, value) => {
    expect(SelfTransferPayloadSchema.safeParse(value).success).toBe(false);
  });
});
