/**
 * `@svc/anvil-fixtures`: the local zERC20 world for development and tests, and the test kit on top of it (the
 * world starter, the test payer, the one `waitFor`). Product code never imports it; tests anywhere may. Exports are listed by name so the surface changes only on purpose (see index.test.ts).
 */
export {
  ANVIL_MNEMONIC,
  DEV_ACCOUNT_NAMES,
  devAccounts,
  FIXTURE_PROVER_ADDRESS,
  FIXTURE_PROVER_PRIVATE_KEY,
  type DevAccount,
  type DevAccountName,
} from "./accounts/devAccounts.js";
export { ANVIL_CHAIN_ID, startAnvil, type StartAnvilParameters, type StartAnvilReturnType } from "./anvil/startAnvil.js";
export { loadArtifacts, type LoadArtifactsReturnType } from "./compile/loadArtifacts.js";
export { fixtureProofSignerAbi, rootDeciderVerifierAbi, withdrawDeciderVerifierAbi } from "./contracts/deciderVerifierAbis.js";
export { fixtureHubAbi, fixtureTokenAdminAbi, fixtureVerifierAdminAbi, fixtureVerifierV2AdminAbi } from "./contracts/fixtureAdminAbis.js";
export { createDeciderApp, type DeciderOptions } from "./decider/deciderApp.js";
export {
  DEFAULT_FEE_BPS,
  DEFAULT_PAYER_BALANCE,
  deployContracts,
  FIXTURE_HUB_EID,
  FIXTURE_TOKEN_NAME,
  type DeployContractsParameters,
  type Deployment,
  type SingleTeleportVerifierKind,
} from "./deploy/deployContracts.js";
export {
  buildSingleTeleportCircuit,
  SINGLE_TELEPORT_TREE_HEIGHT,
  type BuildSingleTeleportCircuitParameters,
  type SingleTeleportCircuit,
} from "./circuits/buildSingleTeleportCircuit.js";
export { CircuitBuildError, PhaseOneFileError } from "./circuits/errors.js";
export { BaseError } from "./errors.js";
export { listen, type Listening } from "./http/listen.js";
export { startIndexer, type RunningIndexer, type StartIndexerOptions } from "./indexer/startIndexer.js";
export {
  FACILITATOR_CLI,
  FacilitatorNotBuiltError,
  startFacilitatorProcess,
  type FacilitatorProcess,
} from "./processes/startFacilitatorProcess.js";
export { ProcessStartError, startProcess, type RunningProcess, type StartProcessOptions } from "./processes/startProcess.js";
export { readEnvFile } from "./processes/readEnvFile.js";
export { startRoundRobin, type RoundRobin } from "./processes/startRoundRobin.js";
export {
  PROVIDER_SERVER,
  ProviderNotBuiltError,
  startProviderProcess,
  type ProviderProcess,
  type StartProviderProcessParameters,
} from "./processes/startProviderProcess.js";
export {
  createTestPayer,
  PermitUnsupportedError,
  TestTransferRevertedError,
  type CreateTestPayerParameters,
  type TestPayer,
} from "./payer/createTestPayer.js";
export { renderFacilitatorEnv, renderFacilitatorToml, type FacilitatorFilesInput } from "./stack/facilitatorFiles.js";
export { startStack, type RunningStack, type StackDeployment, type StartStackOptions } from "./stack/startStack.js";
export { waitFor, WaitTimeoutError, type WaitForCondition, type WaitForOptions } from "./world/waitFor.js";
export { startWorld, type ExtraProvider, type FacilitatorWorld, type StartWorldOptions, type World } from "./world/startWorld.js";
