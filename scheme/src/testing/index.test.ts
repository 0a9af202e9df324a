import { describe, expect, it } from "vitest";
import * as testing from "@svc/scheme/testing";

describe("@svc/scheme/testing surface", () => {
  // Resolved through the package's own `exports`, as other packages' tests import it.
  it("exports exactly these runtime names", () => {
    expect(Object.keys(testing).sort()).toEqual([
      "TEST_BURN_TX_HASH",
      "TEST_CHAIN_ID",
      "TEST_CHALLENGE_NONCE",
      "TEST_EXPIRES_AT",
      "TEST_HELPER",
      "TEST_PAYER",
      "TEST_PAYER_KEY",
      "TEST_PAY_TO",
      "TEST_TOKEN",
      "buildChallengeOffer",
      "buildExtra",
      "buildFacilitatorRequest",
      "buildPaymentPayload",
      "buildPaymentRequired",
      "buildPermitPayload",
      "buildRequirements",
      "buildResourceInfo",
      "buildSelfTransferPayload",
      "buildSettleResponse",
      "buildSupportedResponse",
      "buildVerifyResponse",
      "createFakeChain",
    ]);
  });
});
