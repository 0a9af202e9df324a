import { expect, it } from "vitest";

import * as config from "./index.js";

it("exports exactly the configuration surface", () => {
  expect(Object.keys(config).sort()).toMatchInlineSnapshot(`
    [
      "ANVIL_DEFAULT_MNEMONIC",
      "DEVELOPMENT_KEY_COUNT",
      "LOCAL_CHAIN_ID",
      "MAX_TRANSFER_VALUE",
      "MIN_ADMIN_TOKEN_LENGTH",
      "adminTokenRequiredReason",
      "assertRpcChainId",
      "assertTreasuryMatchesKey",
      "capabilitiesOf",
      "checkStartupRules",
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
      "readConfigToml",
      "redactUrl",
      "redactUrlOrigin",
      "rpcUrlKey",
      "safeParseConfig",
    ]
  `);
});
