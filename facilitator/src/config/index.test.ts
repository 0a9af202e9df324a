import { expect, it } from "vitest";

import * as config from "./index.js";

it("exports exactly the configuration surface", () => {
  expect(Object.keys(config).sort()).toMatchInlineSnapshot(`
    [
      "ANVIL_DEFAULT_MNEMONIC",
      "BURN_SEED_TAG",
      "DEVELOPMENT_KEY_COUNT",
      "LOCAL_CHAIN_ID",
      "MAX_TRANSFER_VALUE",
      "MIN_ADMIN_TOKEN_LENGTH",
      "PAYMENT_SECRET_TAG",
      "PAYMENT_TWEAK_TAG",
      "adminTokenRequiredReason",
      "assertRpcChainId",
      "assertTreasuryMatchesKey",
      "checkStartupRules",
      "computeFee",
      "deriveBurnSeed",
      "derivePaymentSecretBase",
      "derivePaymentTweak",
      "describeUrlCredential",
      "developmentKeyIndex",
      "developmentKeys",
      "facilitatorConfigSchema",
      "findUrlCredentials",
      "isLoopbackHost",
      "isLoopbackUrl",
      "loadConfig",
      "parseConfig",
      "parseSecrets",
      "quote",
      "readConfigToml",
      "redactUrl",
      "safeParseConfig",
    ]
  `);
});
