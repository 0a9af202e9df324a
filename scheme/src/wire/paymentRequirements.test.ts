import { describe, expect, it } from "vitest";

import { buildExtra, buildRequirements } from "../testing/builders.js";
import { PaymentRequirementsSchema } from "./paymentRequirements.js";
import { SubethaExtraSchema } from "./subethaExtra.js";

describe("PaymentRequirementsSchema", () => {
  it("accepts a full offer unchanged", () => {
    const offer = buildRequirements({ extra: buildExtra({ fee: { amount: "1000", bps: 10 } }) });
    expect(PaymentRequirementsSchema.parse(offer)).toEqual(offer);
  });

  it("accepts an offer without the gasless path", () => {
    const offer = buildRequirements({ extra: buildExtra({ helper: undefined, deadline: undefined }) });
    expect(PaymentRequirementsSchema.safeParse(offer).success).toBe(true);
  });

  it("passes the standard optional fields through", () => {
    const offer = buildRequirements({
      resource: "http://127.0.0.1:4021/weather",
      description: "Weather",
      mimeType: "application/json",
      outputSchema: { type: "object" },
    });
    expect(PaymentRequirementsSchema.parse(offer)).toEqual(offer);
  });

  it.each([
    ["another scheme", { scheme: "exact" }],
    ["a non-eip155 network", { network: "solana:mainnet" }],
    ["a non-address asset", { asset: "USDC" }],
    ["an amount with a leading zero", { amount: "01" }],
    ["a numeric amount", { amount: 1 }],
    ["a non-address payTo", { payTo: "0x1234" }],
    ["a zero timeout", { maxTimeoutSeconds: 0 }],
    ["a fractional timeout", { maxTimeoutSeconds: 1.5 }],
    ["a missing extra", { extra: undefined }],
  ])("rejects %s", (_label, overrides) => {
    expect(PaymentRequirementsSchema.safeParse({ ...buildRequirements(), ...overrides }).success).toBe(false);
  });
});

describe("SubethaExtraSchema", () => {
  it.each([
    ["a short challenge nonce", { challengeNonce: "0x1234" }],
    ["a missing challenge nonce", { challengeNonce: undefined }],
    ["a string expiresAt", { expiresAt: "1900000000" }],
    ["a negative expiresAt", { expiresAt: -1 }],
    ["a non-address helper", { helper: "0xnothelper" }],
    ["a fractional deadline", { deadline: 1.5 }],
    ["a fee with a numeric amount", { fee: { amount: 1, bps: 10 } }],
    ["a fee with bps above 10000", { fee: { amount: "1", bps: 10_001 } }],
    ["a fee without bps", { fee: { amount: "1" } }],
  ])("rejects %s", (_label, overrides) => {
    expect(SubethaExtraSchema.safeParse({ ...buildExtra(), ...overrides }).success).toBe(false);
  });
});
