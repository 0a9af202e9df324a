import { describe, expect, it } from "vitest";

import { fromOfferRequirements } from "@svc/scheme";
import { buildExtra, buildRequirements, TEST_EXPIRES_AT } from "@svc/scheme/testing";
import { baseUnitsLimit, buildPolicy } from "../testing/buildPolicy.js";
import { evaluateOffer } from "./evaluateOffer.js";

const at = (secondsLeft: number) => (TEST_EXPIRES_AT - secondsLeft) * 1000;
const offer = fromOfferRequirements(buildRequirements({ amount: "1000" }));

describe("evaluateOffer", () => {
  it("allows an offer on the allowed network with no caps set", () => {
    expect(evaluateOffer(buildPolicy(), offer, at(120))).toEqual({ kind: "allowed", needsApproval: false });
  });

  it("pins the network", () => {
    const verdict = evaluateOffer(buildPolicy({ allowedNetwork: "eip155:1" }), offer, at(120));
    expect(verdict).toMatchObject({ kind: "declined", reason: "network_not_allowed" });
  });

  it("pins the token when SVC_ALLOWED_TOKEN is set, ignoring address case", () => {
    expect(evaluateOffer(buildPolicy({ allowedToken: "0x0000000000000000000000000000000000000001" }), offer, at(120))).toMatchObject({
      reason: "token_not_allowed",
    });
    expect(evaluateOffer(buildPolicy({ allowedToken: "0x5fbdb2315678afecb367f032d93f642f64180aa3" }), offer, at(120))).toMatchObject({ kind: "allowed" });
  });

  it("caps a single payment at SVC_MAX_PER_PAYMENT, inclusive", () => {
    expect(evaluateOffer(buildPolicy({ maxPerPayment: baseUnitsLimit("999") }), offer, at(120))).toMatchObject({ reason: "above_max_per_payment" });
    expect(evaluateOffer(buildPolicy({ maxPerPayment: baseUnitsLimit("1000") }), offer, at(120))).toMatchObject({ kind: "allowed" });
  });

  it("converts limits in token units with the token's on-chain decimals (the offer is 1000 base units)", () => {
    const policy = buildPolicy({ maxPerPayment: { unit: "token", text: "0.1" }, approveAbove: { unit: "token", text: "0.05" } });
    expect(evaluateOffer(policy, offer, at(120), undefined, 4)).toEqual({ kind: "allowed", needsApproval: true });
    expect(evaluateOffer(policy, offer, at(120), undefined, 3)).toMatchObject({ reason: "above_max_per_payment" });
  });

  it("declines under a limit in token units when the token's decimals are unknown", () => {
    const policy = buildPolicy({ maxTotal: { unit: "token", text: "10.0" } });
    expect(evaluateOffer(policy, offer, at(120))).toMatchObject({ kind: "declined", reason: "token_decimals_unknown" });
    expect(evaluateOffer(buildPolicy({ maxTotal: baseUnitsLimit("10") }), offer, at(120))).toMatchObject({ kind: "allowed" });
  });

  it("asks for approval only strictly above SVC_APPROVE_ABOVE", () => {
    expect(evaluateOffer(buildPolicy({ approveAbove: baseUnitsLimit("999") }), offer, at(120))).toEqual({ kind: "allowed", needsApproval: true });
    expect(evaluateOffer(buildPolicy({ approveAbove: baseUnitsLimit("1000") }), offer, at(120))).toEqual({ kind: "allowed", needsApproval: false });
  });

  it("declines an offer without a helper in permit mode, and pays it in self-transfer mode", () => {
    const noHelper = fromOfferRequirements(buildRequirements({ amount: "1000", extra: buildExtra({ helper: undefined, deadline: undefined }) }));
    expect(evaluateOffer(buildPolicy(), noHelper, at(120))).toMatchObject({ reason: "permit_unavailable" });
    expect(evaluateOffer(buildPolicy({ mode: "self-transfer" }), noHelper, at(120))).toMatchObject({ kind: "allowed" });
  });

  it("declines an expired offer, and a self-transfer inside the last 30 s", () => {
    expect(evaluateOffer(buildPolicy(), offer, at(0))).toMatchObject({ reason: "offer_expiring", message: "the offer has expired" });
    expect(evaluateOffer(buildPolicy(), offer, at(5))).toMatchObject({ kind: "allowed" });
    expect(evaluateOffer(buildPolicy({ mode: "self-transfer" }), offer, at(30))).toMatchObject({ reason: "offer_expiring" });
    expect(evaluateOffer(buildPolicy({ mode: "self-transfer" }), offer, at(31))).toMatchObject({ kind: "allowed" });
  });
});
