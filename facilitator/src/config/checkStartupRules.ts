/**
 * The startup rules: what must hold, beyond a well-formed file, before the daemon may run. Pure over the
 * configuration and secrets (plus the RPC's chain id when the caller has it), so `check`, `start` and the
 * tests share one implementation. Rules are checked in this order and the first violation is thrown:
 * 1. well-known development keys, only with profile `local` + loopback listen host + loopback RPC host +
 *    chain 31337 (the error names the first failed predicate; first, because a public key on a reachable
 *    daemon or a real chain is the most dangerous mistake);
 * 2. profile `local` only on chain 31337 (the fixture prover runs nowhere else);
 * 3. `SVC_ADMIN_TOKEN` for a non-loopback bind, any non-local profile and an unset profile;
 * 4. in custodial fee mode, `settlement.treasury` is the address of `SVC_TREASURY_PK` (start refuses what
 *    `check` would reject: the fee sweeps would fail);
 * 5. with `rpcChainId`, it equals `network.chain_id`;
 * 6. outside `local`, a named provider for every caller, and a journal (or `[storage]`) wherever payments are
 *    accepted;
 * 7. under `testnet` and `production`, a minter key of its own (`SVC_MINTER_PK` set and not the relayer's),
 *    so the account that relays a payer's burn never sends the treasury's mint (linkabilityWarnings.ts).
 * Warnings (the daemon starts anyway): development keys, no journal, credentials in the RPC URL, and outside
 * profile `local` the rest of what lets a chain observer link burns and mints (linkabilityWarnings.ts).
 * The profile is read only from the file: an unset profile is non-local even on loopback with chain 31337.
 */
import { capabilitiesOf } from "./capabilities.js";
import { AdminTokenRequiredError, JournalRequiredError } from "./errors.js";
import { DevelopmentKeyRefusedError, LocalProfileChainError, type LocalPredicate, ProviderCredentialsRequiredError } from "./errors.js";
import { assertRpcChainId } from "./assertRpcChainId.js";
import { assertTreasuryMatchesKey } from "./assertTreasuryMatchesKey.js";
import { developmentKeyIndex } from "./developmentKeys.js";
import type { FacilitatorConfig } from "./facilitatorConfigSchema.js";
import { isLoopbackHost, isLoopbackUrl } from "./isLoopbackHost.js";
import { linkabilityWarnings, separateMinterViolation, type LinkabilityWarning } from "./linkabilityWarnings.js";
import type { FacilitatorSecrets } from "./parseSecrets.js";
import { describeUrlCredential, findUrlCredentials } from "./redactUrl.js";
import { rpcUrlKey } from "./rpcUrlKey.js";

/** The chain id of the local anvil stack, the only chain where profile `local` and development keys work. */
export const LOCAL_CHAIN_ID = 31337;

/** A condition that lets the daemon start but that the operator should see. */
export type StartupWarning = {
  /** Stable snake_case code for log filters. */
  code: "development_key" | "journal_disabled" | "rpc_url_credentials" | LinkabilityWarning["code"];
  /** One line for the operator; never a secret's value. */
  message: string;
};

/** Parameters of {@link checkStartupRules}. */
export type CheckStartupRulesParameters = {
  config: FacilitatorConfig;
  secrets: FacilitatorSecrets;
  /** The chain id the RPC reports, when the caller has already asked it. */
  rpcChainId?: number | bigint | undefined;
};

/**
 * Applies the startup rules and returns the warnings, or throws the first violated rule as a named error.
 *
 * @example
 * for (const warning of checkStartupRules({ config, secrets })) log.warn(warning.code, warning.message);
 */
export function checkStartupRules({ config, secrets, rpcChainId }: CheckStartupRulesParameters): StartupWarning[] {
  const warnings: StartupWarning[] = [];

  for (const [variable, key] of [
    ["SVC_TREASURY_PK", secrets.treasuryPk],
    ["SVC_RELAYER_PK", secrets.relayerPk],
    ["SVC_MINTER_PK", secrets.minterPk],
  ] as const) {
    if (key === undefined) continue;
    const index = developmentKeyIndex(key);
    if (index === undefined) continue;
    const predicate = firstFailedLocalPredicate(config);
    if (predicate !== undefined) throw new DevelopmentKeyRefusedError({ variable, predicate });
    warnings.push({
      code: "development_key",
      message: `${variable} is a well-known development key (anvil account ${index}); ` + "accepted only because the setup is fully local",
    });
  }

  if (config.profile === "local" && config.network.chain_id !== LOCAL_CHAIN_ID) {
    throw new LocalProfileChainError({ chainId: config.network.chain_id });
  }

  const tokenReason = adminTokenRequiredReason(config);
  if (tokenReason !== undefined && secrets.adminToken === undefined) {
    throw new AdminTokenRequiredError({ reason: tokenReason });
  }

  assertTreasuryMatchesKey(config, secrets);
  if (rpcChainId !== undefined) assertRpcChainId(config, rpcChainId);

  // Outside `local` every caller of the money endpoints must be a named provider, so limits and logs can
  // tell providers apart and a payer address is only believed from a caller that proved who it is.
  if (config.profile !== "local" && Object.keys(config.providers ?? {}).length === 0) {
    throw new ProviderCredentialsRequiredError({ profile: config.profile });
  }

  // With [storage] the journal is the database's; no file is needed. Off `local`, accepted payments are real
  // money: none may live only in memory.
  if (config.settlement.journal === null && config.storage === undefined && config.profile !== "local" && capabilitiesOf(config).acceptsPayments) {
    throw new JournalRequiredError({ profile: config.profile ?? "(unset)" });
  }
  const minterViolation = separateMinterViolation(config, secrets);
  if (minterViolation !== undefined) throw minterViolation;
  if (config.settlement.journal === null && config.storage === undefined) {
    warnings.push({
      code: "journal_disabled",
      message: 'settlement.journal is "none": accepted payments not yet finalized are lost on restart',
    });
  }
  config.network.rpc_urls.forEach((url, index) => {
    const credentials = findUrlCredentials(url);
    if (credentials.length === 0) return;
    const where = credentials.map(describeUrlCredential).join(", ");
    warnings.push({
      code: "rpc_url_credentials",
      message:
        `${rpcUrlKey(config.network, index)} embeds credentials (${where}); it is printed redacted, ` +
        "but keep credentials out of the file where the provider allows",
    });
  });
  warnings.push(...linkabilityWarnings(config, secrets));
  return warnings;
}

/**
 * Why `SVC_ADMIN_TOKEN` is required for `config`, or `undefined` when the daemon may run without it (profile
 * `local` on a loopback host; `/admin/*` then answers 401 to everyone).
 */
export function adminTokenRequiredReason(config: Pick<FacilitatorConfig, "profile" | "listen">): string | undefined {
  if (config.profile === undefined) return "the profile is unset (an unset profile is non-local)";
  if (config.profile !== "local") return `the profile is \`${config.profile}\``;
  if (!isLoopbackHost(config.listen.host)) return "listen.host is not a loopback address";
  return undefined;
}

function firstFailedLocalPredicate(config: FacilitatorConfig): LocalPredicate | undefined {
  if (config.profile !== "local") return "profile";
  if (!isLoopbackHost(config.listen.host)) return "listen_host";
  if (!config.network.rpc_urls.every(isLoopbackUrl)) return "rpc_host";
  if (config.network.chain_id !== LOCAL_CHAIN_ID) return "chain_id";
  return undefined;
}
