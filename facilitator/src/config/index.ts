/** The facilitator's configuration domain: file schema, secrets and startup rules. */
export { assertRpcChainId } from "./assertRpcChainId.js";
export { assertTreasuryMatchesKey } from "./assertTreasuryMatchesKey.js";
export { capabilitiesOf, type Capabilities } from "./capabilities.js";
export {
  adminTokenRequiredReason,
  checkStartupRules,
  LOCAL_CHAIN_ID,
  type CheckStartupRulesParameters,
  type StartupWarning,
} from "./checkStartupRules.js";
export {
  ANVIL_DEFAULT_MNEMONIC,
  DEVELOPMENT_KEY_COUNT,
  developmentKeyIndex,
  developmentKeys,
} from "./developmentKeys.js";
export {
  facilitatorConfigSchema,
  MAX_TRANSFER_VALUE,
  type FacilitatorConfig,
  type FeeConfig,
  type Profile,
  type ProverConfig,
} from "./facilitatorConfigSchema.js";
export { isLoopbackHost, isLoopbackUrl } from "./isLoopbackHost.js";
export { loadConfig, readConfigToml, type LoadConfigReturnType } from "./loadConfig.js";
export {
  parseConfig,
  safeParseConfig,
  type ParseConfigOptions,
  type SafeParseConfigReturnType,
} from "./parseConfig.js";
export {
  MIN_ADMIN_TOKEN_LENGTH,
  parseSecrets,
  type Environment,
  type FacilitatorSecrets,
} from "./parseSecrets.js";
export { describeUrlCredential, findUrlCredentials, redactUrl, redactUrlOrigin, type UrlCredential } from "./redactUrl.js";
export { rpcUrlKey } from "./rpcUrlKey.js";
