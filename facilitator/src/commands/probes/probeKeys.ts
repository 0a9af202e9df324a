/**
 * The `keys` probe: the secrets in the environment and the startup rules over them. Messages name the
 * variable, never its value (the named errors are built that way). `parseSecrets` and `checkStartupRules`
 * stop at the first problem, which suits `start`; `check` wants one line per problem, so this probe keeps
 * asking until it has them all.
 */
import { privateKeyToAddress } from "viem/accounts";
import { separateHandsWarning, separateMinterViolation } from "../../config/linkabilityWarnings.js";

import {
  adminTokenRequiredReason,
  assertTreasuryMatchesKey,
  checkStartupRules,
  developmentKeyIndex,
  LOCAL_CHAIN_ID,
  MIN_ADMIN_TOKEN_LENGTH,
  parseSecrets,
  type Environment,
  type FacilitatorConfig,
  type FacilitatorSecrets,
} from "../../config/index.js";
import { BaseError } from "../../errors/base.js";
import { AdminTokenRequiredError, InvalidSecretError, MissingSecretError } from "../../config/errors.js";
import { DevelopmentKeyRefusedError, LocalProfileChainError, ProviderCredentialsRequiredError, SeparateMinterRequiredError } from "../../config/errors.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";

/** What {@link probeKeys} found: the findings, and the secrets when every variable is valid. */
export type ProbeKeysReturnType = { findings: CheckFinding[]; secrets: FacilitatorSecrets | undefined };

// Stand-ins used only to get past a variable already reported, so the next variable gets checked too; the
// secrets parsed with a stand-in are thrown away. Key 1 is a valid scalar and no development key.
const STAND_INS = {
  SVC_TREASURY_PK: `0x${"1".padStart(64, "0")}`,
  SVC_RELAYER_PK: `0x${"1".padStart(64, "0")}`,
  SVC_MINTER_PK: `0x${"1".padStart(64, "0")}`,
  SVC_ADMIN_TOKEN: "x".repeat(MIN_ADMIN_TOKEN_LENGTH),
} as const;

/** Validates the secret variables in `env` and, when `config` parsed, applies the startup rules to them. */
export function probeKeys(env: Environment, config: FacilitatorConfig | undefined): ProbeKeysReturnType {
  const list = new FindingList("keys");
  const secrets = parseAllSecrets(env, list);
  if (secrets === undefined) {
    list.skip("startup rules not checked: the secrets above are missing or invalid");
    return { findings: list.findings, secrets: undefined };
  }
  const treasury = privateKeyToAddress(secrets.treasuryPk);
  const relayer = privateKeyToAddress(secrets.relayerPk);
  const token = secrets.adminToken === undefined ? "SVC_ADMIN_TOKEN is unset" : "SVC_ADMIN_TOKEN is set";
  list.ok(`SVC_TREASURY_PK (address ${treasury}) and SVC_RELAYER_PK (address ${relayer}) are valid keys; ${token}`);
  if (config === undefined) {
    list.skip("startup rules not checked: the configuration does not parse");
    return { findings: list.findings, secrets };
  }
  applyStartupRules(config, secrets, list);
  checkSeparateHands(config, secrets, list);
  return { findings: list.findings, secrets };
}

// One account relaying a payer's burn and sending the mint to the treasury ties the two together on-chain.
function checkSeparateHands(config: FacilitatorConfig, secrets: FacilitatorSecrets, list: FindingList): void {
  const violation = separateMinterViolation(config, secrets);
  const warning = separateHandsWarning(config, secrets);
  if (violation !== undefined) list.fail(violation.shortMessage);
  else if (warning !== undefined) list.warn(warning.message);
  else if (secrets.minterPk !== undefined && secrets.minterPk.toLowerCase() !== secrets.relayerPk.toLowerCase()) {
    list.ok(`SVC_MINTER_PK (address ${privateKeyToAddress(secrets.minterPk)}) submits mints and fee distributions; SVC_RELAYER_PK only relays permit burns`);
  }
}

function parseAllSecrets(env: Environment, list: FindingList): FacilitatorSecrets | undefined {
  let attempt: Environment = env;
  let failed = false;
  for (let round = 0; round <= Object.keys(STAND_INS).length; round++) {
    try {
      const secrets = parseSecrets(attempt);
      return failed ? undefined : secrets;
    } catch (error) {
      if (!(error instanceof MissingSecretError || error instanceof InvalidSecretError)) throw error;
      list.fail(error.shortMessage);
      failed = true;
      attempt = { ...attempt, [error.variable]: STAND_INS[error.variable] };
    }
  }
  return undefined;
}

function applyStartupRules(config: FacilitatorConfig, secrets: FacilitatorSecrets, list: FindingList): void {
  let first: BaseError | undefined;
  try {
    for (const warning of checkStartupRules({ config, secrets })) {
      // The journal and RPC URL warnings belong to their own probes, which print them.
      if (warning.code === "development_key") list.warn(warning.message);
    }
  } catch (error) {
    if (!(error instanceof BaseError)) throw error;
    // The provider rule has its own probe (`providers`) and the minter rule its own line (checkSeparateHands),
    // which report them once.
    if (!(error instanceof ProviderCredentialsRequiredError || error instanceof SeparateMinterRequiredError)) first = error;
  }
  if (first === undefined) {
    list.ok(describeRulesPassed(config, secrets));
    return;
  }
  // checkStartupRules reports only the first violated rule; the later, independent rules are asked again
  // here so that each problem gets its own line.
  const problems: BaseError[] = [first];
  const variables = ["SVC_TREASURY_PK", "SVC_RELAYER_PK"] as const;
  if (first instanceof DevelopmentKeyRefusedError) {
    const keys = { SVC_TREASURY_PK: secrets.treasuryPk, SVC_RELAYER_PK: secrets.relayerPk };
    for (const variable of variables) {
      if (variable === first.variable || developmentKeyIndex(keys[variable]) === undefined) continue;
      problems.push(new DevelopmentKeyRefusedError({ variable, predicate: first.predicate }));
    }
  } else {
    for (const variable of variables) {
      const index = developmentKeyIndex(variable === "SVC_TREASURY_PK" ? secrets.treasuryPk : secrets.relayerPk);
      if (index === undefined) continue;
      list.warn(`${variable} is a well-known development key (anvil account ${index}); ` + "accepted only because the setup is fully local");
    }
  }
  if (config.profile === "local" && config.network.chain_id !== LOCAL_CHAIN_ID) {
    problems.push(new LocalProfileChainError({ chainId: config.network.chain_id }));
  }
  const tokenReason = adminTokenRequiredReason(config);
  if (tokenReason !== undefined && secrets.adminToken === undefined) {
    problems.push(new AdminTokenRequiredError({ reason: tokenReason }));
  }
  try {
    assertTreasuryMatchesKey(config, secrets);
  } catch (error) {
    if (!(error instanceof BaseError)) throw error;
    problems.push(error);
  }
  const seen = new Set<string>();
  for (const problem of problems) {
    const key = `${problem.name}:${problem.shortMessage}`;
    if (seen.has(key)) continue;
    seen.add(key);
    list.fail(problem.shortMessage);
  }
}

function describeRulesPassed(config: FacilitatorConfig, secrets: FacilitatorSecrets): string {
  const parts = ["startup rules hold"];
  if (config.fee?.mode === "custodial") parts.push("settlement.treasury is the address of SVC_TREASURY_PK");
  if (secrets.adminToken === undefined) parts.push("/admin/* stays locked without SVC_ADMIN_TOKEN");
  return parts.join("; ");
}
