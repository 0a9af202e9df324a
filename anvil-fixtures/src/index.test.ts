import { describe, expect, it } from "vitest";
import * as fixtures from "./index.js";

describe("public surface", () => {
  // Adding, renaming or removing an export must be a deliberate change to this list.
  it("exports exactly these runtime names", () => {
    expect(Object.keys(fixtures).sort()).toEqual([
      "ANVIL_CHAIN_ID",
      "ANVIL_MNEMONIC",
      "BaseError",
      "DEFAULT_FEE_BPS",
      "DEFAULT_PAYER_BALANCE",
      "DEV_ACCOUNT_NAMES",
      "FACILITATOR_CLI",
      "FIXTURE_HUB_EID",
      "FIXTURE_PROVER_ADDRESS",
      "FIXTURE_PROVER_PRIVATE_KEY",
      "FIXTURE_TOKEN_NAME",
      "FacilitatorNotBuiltError",
      "PROVIDER_SERVER",
      "PermitUnsupportedError",
      "ProcessStartError",
      "ProviderNotBuiltError",
      "TestTransferRevertedError",
      "WaitTimeoutError",
      "createDeciderApp",
      "createTestPayer",
      "deployContracts",
      "devAccounts",
      "fixtureHubAbi",
      "fixtureProofSignerAbi",
      "fixtureTokenAdminAbi",
      "fixtureVerifierAdminAbi",
      "fixtureVerifierV2AdminAbi",
      "listen",
      "loadArtifacts",
      "readEnvFile",
      "renderFacilitatorEnv",
      "renderFacilitatorToml",
      "rootDeciderVerifierAbi",
      "startAnvil",
      "startFacilitatorProcess",
      "startIndexer",
      "startProcess",
      "startProviderProcess",
      "startRoundRobin",
      "startStack",
      "startWorld",
      "waitFor",
      "withdrawDeciderVerifierAbi",
    ]);
  });
});
