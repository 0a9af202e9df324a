import { recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";

import { InvalidSignatureError, PermitUnavailableError } from "./errors.js";
import { buildExtra, buildRequirements, TEST_PAYER, TEST_PAYER_KEY } from "../testing/builders.js";
import { classifyPayload } from "../wire/classifyPayload.js";
import { fromOfferRequirements } from "../wire/offer.js";
import { buildBurnAuthorizationTypedData } from "./burnAuthorizationTypedData.js";
import { buildPermitPayload } from "./buildPermitPayload.js";
import { joinSignature } from "./joinSignature.js";
import { buildPermitTypedData } from "./permitTypedData.js";

const account = privateKeyToAccount(TEST_PAYER_KEY);
const offer = fromOfferRequirements(buildRequirements({ amount: "2500" }));
const tokenName = "zkERC20 Test";

/** What a payer does: sign both messages for the offer and assemble the payload. */
async function pay(nonce: bigint) {
  const permitSignature = await account.signTypedData(buildPermitTypedData({ offer, payer: TEST_PAYER, nonce, tokenName }));
  const burnAuthorizationSignature = await account.signTypedData(buildBurnAuthorizationTypedData({ offer, payer: TEST_PAYER }));
  return buildPermitPayload({ offer, payer: TEST_PAYER, nonce, permitSignature, burnAuthorizationSignature });
}

describe("buildPermitPayload", () => {
  it("assembles a payload the discrimination rule accepts, with value and deadline from the offer", async () => {
    const payload = await pay(3n);
    expect(classifyPayload(payload)).toEqual({ kind: "permit", payload });
    expect(payload.permit).toMatchObject({ value: "2500", nonce: "3", deadline: "1900000300" });
    expect(payload.challengeNonce).toBe(offer.challengeNonce);
  });

  it("lets the facilitator recover the payer from the payload and the echoed offer alone", async () => {
    const payload = await pay(3n);
    const permitSigner = await recoverTypedDataAddress({
      ...buildPermitTypedData({ offer, payer: payload.payer, nonce: BigInt(payload.permit.nonce), tokenName }),
      signature: joinSignature(payload.permit),
    });
    const burnSigner = await recoverTypedDataAddress({
      ...buildBurnAuthorizationTypedData({ offer, payer: payload.payer }),
      signature: payload.burnAuthSig,
    });
    expect([permitSigner, burnSigner]).toEqual([TEST_PAYER, TEST_PAYER]);
  });

  it("recovers someone else when the facilitator rebuilds with a different nonce", async () => {
    const payload = await pay(3n);
    const signer = await recoverTypedDataAddress({
      ...buildPermitTypedData({ offer, payer: payload.payer, nonce: 4n, tokenName }),
      signature: joinSignature(payload.permit),
    });
    expect(signer).not.toBe(TEST_PAYER);
  });

  it("refuses a truncated burn-authorization signature", () => {
    expect(() =>
      buildPermitPayload({
        offer,
        payer: TEST_PAYER,
        nonce: 0n,
        permitSignature: `0x${"11".repeat(32)}${"22".repeat(32)}1b`,
        burnAuthorizationSignature: "0x1234",
      }),
    ).toThrow(InvalidSignatureError);
  });

  it("refuses an offer without a helper", () => {
    expect(() =>
      buildPermitPayload({
        offer: fromOfferRequirements(buildRequirements({ extra: buildExtra({ helper: undefined }) })),
        payer: TEST_PAYER,
        nonce: 0n,
        permitSignature: "0x",
        burnAuthorizationSignature: "0x",
      }),
    ).toThrow(PermitUnavailableError);
  });
});
