import { expect, it } from "vitest";

import * as challenges from "./index.js";

it("exports exactly the challenge surface", () => {
  expect(Object.keys(challenges).sort()).toMatchInlineSnapshot(`
    [
      "BurnAddressPool",
      "ChallengeStore",
      "DEFAULT_BURN_ADDRESS_POOL_SIZE",
      "DEFAULT_BURN_ADDRESS_TAKE_TIMEOUT_MS",
      "DEFAULT_MAX_RETAINED_EXPIRED",
      "createChallengeIssuer",
      "reopenBurnSecret",
      "reopenBurnSecretOffThread",
    ]
  `);
});
