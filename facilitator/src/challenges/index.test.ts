import { expect, it } from "vitest";

import * as challenges from "./index.js";

it("exports exactly the challenge surface", () => {
  expect(Object.keys(challenges).sort()).toMatchInlineSnapshot(`
    [
      "BURN_SEED_TAG",
      "BurnAddressPool",
      "ChallengeStore",
      "DEFAULT_BURN_ADDRESS_POOL_SIZE",
      "DEFAULT_BURN_ADDRESS_TAKE_TIMEOUT_MS",
      "DEFAULT_MAX_RETAINED_EXPIRED",
      "PAYMENT_SECRET_TAG",
      "PAYMENT_TWEAK_TAG",
      "computeFee",
      "createChallengeIssuer",
      "deriveBurnSeed",
      "derivePaymentSecretBase",
      "derivePaymentTweak",
      "quote",
      "reopenBurnSecret",
      "reopenBurnSecretOffThread",
    ]
  `);
});
