/** Errors for a configuration that parses but must not run: the startup rules and the custodial key check. */
import { BaseError } from "./base.js";
import type { SecretVariable } from "./secrets.js";

/** The four conditions under which a well-known development key is tolerated, in the order they are checked. */
export type LocalPredicate = "profile" | "listen_host" | "rpc_host" | "chain_id";

const PREDICATE_FAILURES: Record<LocalPredicate, string> = {
  profile: "the profile is not `local`",
  listen_host: "listen.host is not a loopback address",
  rpc_host: "the host of network.rpc_url is not a loopback address",
  chain_id: "network.chain_id is not 31337",
};

/**
 * Thrown when a private key is one of anvil's public default keys outside a fully local setup: anyone can
 * sign with those keys, so on a reachable daemon or a real chain they would hand over the treasury or relayer.
 */
export class DevelopmentKeyRefusedError extends BaseError {
  override name = "DevelopmentKeyRefusedError";
  /** The variable holding the development key. */
  readonly variable: Exclude<SecretVariable, "SVC_ADMIN_TOKEN">;
  /** The first local predicate that failed. */
  readonly predicate: LocalPredicate;

  constructor({
    variable,
    predicate,
  }: {
    variable: Exclude<SecretVariable, "SVC_ADMIN_TOKEN">;
    predicate: LocalPredicate;
  }) {
    super(`${variable} is a well-known development key, refused because ${PREDICATE_FAILURES[predicate]}.`, {
      details:
        "development keys are accepted only with profile `local`, a loopback listen host, " +
        "a loopback RPC host and chain id 31337",
    });
    this.variable = variable;
    this.predicate = predicate;
  }
}

/** Thrown for profile `local` on a chain other than 31337: the fixture prover `local` relies on runs nowhere else. */
export class LocalProfileChainError extends BaseError {
  override name = "LocalProfileChainError";
  /** The configured `network.chain_id`. */
  readonly chainId: number;

  constructor({ chainId }: { chainId: number }) {
    super(`Profile \`local\` has no prover on chain ${chainId}: it runs only on the local chain 31337.`);
    this.chainId = chainId;
  }
}

/** Thrown when the chain id the RPC reports differs from `network.chain_id`. */
export class ChainIdMismatchError extends BaseError {
  override name = "ChainIdMismatchError";
  /** The configured `network.chain_id`. */
  readonly configured: number;
  /** What the RPC reported. */
  readonly reported: number;

  constructor({ configured, reported }: { configured: number; reported: number }) {
    super(`network.chain_id is ${configured} but the RPC at network.rpc_url reports chain ${reported}.`);
    this.configured = configured;
    this.reported = reported;
  }
}

/**
 * Thrown in custodial fee mode when `settlement.treasury` is not the address of `SVC_TREASURY_PK`: the
 * facilitator signs the fee sweeps from the treasury, so it must hold that address's key.
 */
export class TreasuryKeyMismatchError extends BaseError {
  override name = "TreasuryKeyMismatchError";

  constructor({ keyAddress }: { keyAddress: string }) {
    super("In custodial fee mode settlement.treasury must be the address of SVC_TREASURY_PK.", {
      details: `SVC_TREASURY_PK controls ${keyAddress}`,
    });
  }
}

/**
 * Thrown when a non-local profile (or an unset one) has no `[providers.<name>]` table: outside `local` the
 * money endpoints only serve authenticated providers.
 */
export class ProviderCredentialsRequiredError extends BaseError {
  override name = "ProviderCredentialsRequiredError";

  constructor({ profile }: { profile: string | undefined }) {
    super(
      `profile ${profile === undefined ? "unset (non-local)" : `\`${profile}\``} requires at least one [providers.<name>] table ` +
        "with key_sha256: outside profile local only authenticated providers may call /challenge, /verify and /settle",
    );
  }
}
