import { describe, expect, it } from "vitest";

import { ChallengeOfferSchema } from "./challengeOffer.js";
import { fromChallengeOffer, fromOfferRequirements, offerExtra, offerRequirements, toChallengeOffer, type Offer } from "./offer.js";
import { PaymentRequirementsSchema } from "./paymentRequirements.js";

const base: Offer = {
  challengeNonce: `0x${"ab".repeat(32)}`,
  chainId: 31337,
  asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  payTo: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
  amount: 1010n,
  expiresAt: 1_900_000_300,
  helper: undefined,
  deadline: undefined,
  fee: undefined,
};
const permitOffer: Offer = {
  ...base,
  helper: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  deadline: 1_900_000_300,
  fee: { amount: 10n, bps: 100 },
  decimals: 6,
};

describe("offerExtra", () => {
  it("writes the optional keys only when present", () => {
    expect(Object.keys(offerExtra(base))).toEqual(["challengeNonce", "expiresAt"]);
    expect(offerExtra(permitOffer)).toEqual({
      challengeNonce: permitOffer.challengeNonce,
      expiresAt: 1_900_000_300,
      helper: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
      deadline: 1_900_000_300,
      fee: { amount: "10", bps: 100 },
      decimals: 6,
    });
  });
});

describe("offerRequirements", () => {
  it("encodes a valid svc-zerc20 offer with the caller's timeout", () => {
    const requirements = offerRequirements(permitOffer, 42);
    expect(PaymentRequirementsSchema.parse(requirements)).toEqual(requirements);
    expect(requirements).toMatchObject({ network: "eip155:31337", amount: "1010", maxTimeoutSeconds: 42, asset: base.asset, payTo: base.payTo });
  });
});

describe("fromOfferRequirements", () => {
  it("reads back exactly the offer its requirements were encoded from", () => {
    for (const offer of [base, permitOffer]) {
      expect(fromOfferRequirements(PaymentRequirementsSchema.parse(offerRequirements(offer, 42)))).toEqual(offer);
    }
  });

  it("drops keys the offer does not define", () => {
    const requirements = PaymentRequirementsSchema.parse({ ...offerRequirements(base, 42), resource: "http://x/", extra: { ...offerExtra(base), future: 1 } });
    expect(fromOfferRequirements(requirements)).toEqual(base);
  });
});

describe("the /challenge answer", () => {
  it.each([
    ["without the permit path", base],
    ["with the permit path and a payer fee", permitOffer],
  ])("round-trips an offer %s", (_, offer) => {
    const wire = toChallengeOffer(offer);
    expect(ChallengeOfferSchema.parse(JSON.parse(JSON.stringify(wire)))).toEqual(wire);
    expect(fromChallengeOffer(wire)).toEqual(offer);
  });

  it("keeps the facilitator's key order, optional keys only when present", () => {
    expect(Object.keys(toChallengeOffer(base))).toEqual(["payTo", "amount", "token", "chainId", "challengeNonce", "expiresAt"]);
  });
});
