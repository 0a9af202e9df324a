import { describe, expect, it } from "vitest";

import { buildPaymentRequired, buildRequirements, buildResourceInfo } from "../testing/builders.js";
import type { OtherPaymentRequirements } from "./otherPaymentRequirements.js";
import { PaymentRequiredSchema } from "./paymentRequired.js";
import { ResourceInfoSchema } from "./resourceInfo.js";
import { selectSchemeRequirements } from "./selectSchemeRequirements.js";

const exactOffer: OtherPaymentRequirements = {
  scheme: "exact",
  network: "eip155:8453",
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  amount: "10000",
  payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
  maxTimeoutSeconds: 60,
  extra: { name: "USDC", version: "2" },
};

describe("PaymentRequiredSchema", () => {
  it("accepts a 402 body unchanged", () => {
    const body = buildPaymentRequired({ extensions: { bazaar: { info: 1 } } });
    expect(PaymentRequiredSchema.parse(body)).toEqual(body);
  });

  it("accepts other schemes beside ours, and selectSchemeRequirements picks ours", () => {
    const ours = buildRequirements({ amount: "7" });
    const body = PaymentRequiredSchema.parse(buildPaymentRequired({ accepts: [exactOffer, ours] }));
    expect(body.accepts).toEqual([exactOffer, ours]);
    expect(selectSchemeRequirements(body)).toEqual([ours]);
  });

  it("rejects an svc-zerc20 entry that breaks the offer shape instead of passing it as another scheme", () => {
    const broken = { ...buildRequirements(), amount: "1.5" };
    expect(PaymentRequiredSchema.safeParse(buildPaymentRequired({ accepts: [exactOffer, broken] })).success).toBe(false);
  });

  it.each([
    ["x402 version 1", { x402Version: 1 }],
    ["no accepts", { accepts: [] }],
    ["no resource", { resource: undefined }],
    ["a resource without url", { resource: { description: "x" } }],
    ["a numeric error", { error: 402 }],
    ["an array of extensions", { extensions: [] }],
  ])("rejects %s", (_label, overrides) => {
    expect(PaymentRequiredSchema.safeParse({ ...buildPaymentRequired(), ...overrides }).success).toBe(false);
  });
});

describe("ResourceInfoSchema", () => {
  it.each([
    ["an empty url", { url: "" }],
    ["a long service name", { serviceName: "x".repeat(33) }],
    ["six tags", { tags: ["a", "b", "c", "d", "e", "f"] }],
    ["a non-ASCII tag", { tags: ["café"] }],
  ])("rejects %s, as @x402/core does", (_label, overrides) => {
    expect(ResourceInfoSchema.safeParse(buildResourceInfo(overrides)).success).toBe(false);
  });
});
