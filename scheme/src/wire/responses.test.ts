import { describe, expect, it } from "vitest";

import { buildChallengeOffer, buildSettleResponse, buildSupportedResponse, buildVerifyResponse } from "../testing/builders.js";
import { ChallengeOfferSchema } from "./challengeOffer.js";
import { ChallengeRequestSchema, MAX_CHALLENGE_AMOUNT } from "./challengeRequest.js";
import { SettleResponseSchema } from "./settleResponse.js";
import { SupportedResponseSchema } from "./supportedResponse.js";
import { VerifyResponseSchema } from "./verifyResponse.js";

describe("VerifyResponseSchema", () => {
  it.each([
    ["valid", buildVerifyResponse()],
    ["invalid", { isValid: false, invalidReason: "challenge_expired", invalidMessage: "expired" }],
  ])("accepts a %s answer unchanged", (_label, value) => {
    expect(VerifyResponseSchema.parse(value)).toEqual(value);
  });

  it.each([
    ["a string isValid", { isValid: "true" }],
    ["a numeric reason", { isValid: false, invalidReason: 3 }],
    ["a non-address payer", { isValid: true, payer: "bob" }],
  ])("rejects %s", (_label, value) => {
    expect(VerifyResponseSchema.safeParse(value).success).toBe(false);
  });
});

describe("SettleResponseSchema", () => {
  it.each([
    ["accepted", buildSettleResponse()],
    ["failed", buildSettleResponse({ success: false, transaction: "", errorReason: "pending_burn", extra: undefined })],
    ["middleware-failed", { success: false, transaction: "", network: "eip155:31337", errorReason: "x", errorMessage: "x" }],
  ])("accepts a %s answer unchanged", (_label, value) => {
    expect(SettleResponseSchema.parse(value)).toEqual(value);
  });

  it.each([
    ["no transaction", { ...buildSettleResponse(), transaction: undefined }],
    ["a short transaction", { ...buildSettleResponse(), transaction: "0x12" }],
    ["no network", { ...buildSettleResponse(), network: undefined }],
    ["another phase", { ...buildSettleResponse(), extra: { phase: "finalized" } }],
    ["a string success", { ...buildSettleResponse(), success: "true" }],
  ])("rejects %s", (_label, value) => {
    expect(SettleResponseSchema.safeParse(value).success).toBe(false);
  });
});

describe("ChallengeRequestSchema", () => {
  it("accepts a list price", () => {
    expect(ChallengeRequestSchema.parse({ amount: "1000" })).toEqual({ amount: "1000" });
  });

  it.each([[{ amount: 1000 }], [{ amount: "1e3" }], [{}]])("rejects %j", (value) => {
    expect(ChallengeRequestSchema.safeParse(value).success).toBe(false);
  });

  it("accepts 2^248 - 1 and refuses anything above, which no zERC20 transfer can carry", () => {
    expect(ChallengeRequestSchema.safeParse({ amount: MAX_CHALLENGE_AMOUNT.toString() }).success).toBe(true);
    const above = ChallengeRequestSchema.safeParse({ amount: (MAX_CHALLENGE_AMOUNT + 1n).toString() });
    expect(above.error?.issues.map((issue) => issue.message)).toEqual(["exceeds the largest zERC20 transfer value (2^248 - 1)"]);
  });
});

describe("ChallengeOfferSchema", () => {
  it("accepts an offer unchanged", () => {
    const offer = buildChallengeOffer({ fee: { amount: "10", bps: 5 } });
    expect(ChallengeOfferSchema.parse(offer)).toEqual(offer);
  });

  it.each([
    ["a string chain id", { chainId: "31337" }],
    ["a bad payTo", { payTo: "0x00" }],
    ["a bad token", { token: undefined }],
    ["a bad nonce", { challengeNonce: "0x00" }],
  ])("rejects %s", (_label, overrides) => {
    expect(ChallengeOfferSchema.safeParse({ ...buildChallengeOffer(), ...overrides }).success).toBe(false);
  });
});

describe("SupportedResponseSchema", () => {
  it("accepts the local body and the empty non-local body", () => {
    expect(SupportedResponseSchema.parse(buildSupportedResponse())).toEqual(buildSupportedResponse());
    expect(SupportedResponseSchema.safeParse(buildSupportedResponse({ kinds: [] })).success).toBe(true);
  });

  it.each([
    ["x402 version 1", { kinds: [{ x402Version: 1, scheme: "svc-zerc20", network: "eip155:31337" }] }],
    ["another scheme", { kinds: [{ x402Version: 2, scheme: "exact", network: "eip155:31337" }] }],
    ["no signers", { signers: undefined }],
  ])("rejects %s", (_label, overrides) => {
    expect(SupportedResponseSchema.safeParse({ ...buildSupportedResponse(), ...overrides }).success).toBe(false);
  });
});
