/**
 * Errors for a configuration file that cannot be used. Each names the offending key (dotted path, as in
 * the TOML file) and why; none quotes a value, because a URL can carry credentials and a key pasted into
 * the file by mistake must not reach a log.
 */
import { BaseError } from "../errors/base.js";

/** Quotes a key taken from the file, bounded so a hostile file cannot flood a log line. */
function quoteKey(key: string): string {
  return JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key);
}

/** Thrown when the configuration file cannot be read (missing, unreadable, a directory). */
export class ConfigFileReadError extends BaseError {
  override name = "ConfigFileReadError";
  /** The path that was read. */
  readonly path: string;

  constructor({ path, cause }: { path: string; cause?: unknown }) {
    const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined;
    super(`Cannot read configuration file ${JSON.stringify(path)}.`, {
      cause,
      details: code === undefined ? undefined : code,
    });
    this.path = path;
  }
}

/**
 * Thrown when the file is not valid TOML. Carries the line and column only: the parser's own message
 * quotes the surrounding source lines, which could hold a secret pasted into the wrong file, so the parser
 * error is deliberately not kept as `cause`.
 */
export class ConfigSyntaxError extends BaseError {
  override name = "ConfigSyntaxError";
  /** The file that failed to parse. */
  readonly path: string;
  /** 1-based line of the syntax error. */
  readonly line: number;
  /** 1-based column of the syntax error. */
  readonly column: number;

  constructor({ path, line, column, reason }: { path: string; line: number; column: number; reason: string }) {
    super(`Invalid TOML in ${JSON.stringify(path)} at line ${line}, column ${column}: ${reason}.`);
    this.path = path;
    this.line = line;
    this.column = column;
  }
}

/**
 * Thrown for a key the configuration does not define. Unknown keys are refused rather than ignored: in a
 * money configuration a misspelt `min_per_paymnet` must not silently fall back to a default, and a secret
 * pasted into the file must not sit there unnoticed.
 */
export class UnknownConfigKeyError extends BaseError {
  override name = "UnknownConfigKeyError";
  /** Dotted path of the unknown key. */
  readonly key: string;

  constructor({ key, looksSecret }: { key: string; looksSecret: boolean }) {
    super(`Unknown configuration key ${quoteKey(key)}.`, {
      metaMessages: looksSecret ? ["Secrets are never read from the file: set SVC_TREASURY_PK, SVC_RELAYER_PK, SVC_ADMIN_TOKEN instead."] : undefined,
      details: "unknown keys are refused so that a typo in a payment setting cannot pass silently",
    });
    this.key = key;
  }
}

/** Thrown when a required key or table is absent. */
export class MissingConfigKeyError extends BaseError {
  override name = "MissingConfigKeyError";
  /** Dotted path of the missing key. */
  readonly key: string;

  constructor({ key, reason }: { key: string; reason?: string | undefined }) {
    super(`Missing required configuration key ${quoteKey(key)}${reason ? `: ${reason}` : ""}.`);
    this.key = key;
  }
}

/** Thrown when a key is present but its value breaks a rule (type, range, format). */
export class InvalidConfigValueError extends BaseError {
  override name = "InvalidConfigValueError";
  /** Dotted path of the key. */
  readonly key: string;
  /** Why the value is refused, without the value itself. */
  readonly reason: string;

  constructor({ key, reason }: { key: string; reason: string }) {
    super(`Invalid value for ${quoteKey(key)}: ${reason}.`);
    this.key = key;
    this.reason = reason;
  }
}

/** Thrown when the `[fee]` table sets both or neither of `fee.recipient` (custodial) and `fee.splitter` (split). */
export class FeeModeError extends BaseError {
  override name = "FeeModeError";
  /** Which of the two mode keys were set. */
  readonly present: "both" | "neither";

  constructor({ present }: { present: "both" | "neither" }) {
    super(
      present === "both"
        ? 'The [fee] table sets both "fee.recipient" and "fee.splitter": choose custodial or split mode.'
        : 'The [fee] table sets neither "fee.recipient" (custodial mode) nor "fee.splitter" (split mode).',
    );
    this.present = present;
  }
}

/** Thrown in split fee mode when `fee.splitter` is not `settlement.treasury`, so mints would bypass the splitter. */
export class SplitterMismatchError extends BaseError {
  override name = "SplitterMismatchError";

  constructor() {
    super('In split fee mode "fee.splitter" must equal "settlement.treasury".', {
      details: "the split contract is the mint destination; any other treasury would receive unsplit payments",
    });
  }
}

/** Every error a configuration table can produce. */
export type ConfigError = UnknownConfigKeyError | MissingConfigKeyError | InvalidConfigValueError | FeeModeError | SplitterMismatchError;

/**
 * Errors for the facilitator's environment secrets. They name the variable and the rule it broke, never the
 * value, not even a prefix: a truncated private key still narrows a search and belongs in no log.
 */

/** The environment variables that carry facilitator secrets. */
export type SecretVariable = "SVC_TREASURY_PK" | "SVC_RELAYER_PK" | "SVC_MINTER_PK" | "SVC_ADMIN_TOKEN";

/** Thrown when a required secret variable is unset or empty. */
export class MissingSecretError extends BaseError {
  override name = "MissingSecretError";
  /** The variable that is missing. */
  readonly variable: SecretVariable;

  constructor({ variable, reason }: { variable: SecretVariable; reason?: string | undefined }) {
    super(`${variable} is not set${reason ? `; it is required because ${reason}` : ""}.`, {
      details: "secrets are read only from the environment, never from the configuration file",
    });
    this.variable = variable;
  }
}

/**
 * Thrown when `SVC_ADMIN_TOKEN` is absent where the startup rules require it (non-loopback bind, non-local
 * or unset profile). A subclass so callers catching every missing secret still catch it.
 */
export class AdminTokenRequiredError extends MissingSecretError {
  override name = "AdminTokenRequiredError";

  constructor({ reason }: { reason: string }) {
    super({ variable: "SVC_ADMIN_TOKEN", reason });
  }
}

/** Thrown when a secret variable is set but malformed; `reason` describes the rule, not the value. */
export class InvalidSecretError extends BaseError {
  override name = "InvalidSecretError";
  /** The variable that is malformed. */
  readonly variable: SecretVariable;

  constructor({ variable, reason }: { variable: SecretVariable; reason: string }) {
    super(`${variable} is invalid: ${reason}.`);
    this.variable = variable;
  }
}

/** Errors for a configuration that parses but must not run: the startup rules and the custodial key check. */

/** The four conditions under which a well-known development key is tolerated, in the order they are checked. */
export type LocalPredicate = "profile" | "listen_host" | "rpc_host" | "chain_id";

const PREDICATE_FAILURES: Record<LocalPredicate, string> = {
  profile: "the profile is not `local`",
  listen_host: "listen.host is not a loopback address",
  rpc_host: "the host of network.rpc_url (or of an entry of network.rpc_urls) is not a loopback address",
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
      details: "development keys are accepted only with profile `local`, a loopback listen host, " + "a loopback RPC host and chain id 31337",
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

/**
 * Thrown when a daemon that accepts real payments (profile `testnet` or `production` with a real prover)
 * has no journal and no `[storage]`: every accepted payment not yet minted would be lost on a restart.
 */
export class JournalRequiredError extends BaseError {
  override name = "JournalRequiredError";

  constructor({ profile }: { profile: string }) {
    super(`Profile \`${profile}\` accepts payments and needs somewhere to keep them: set settlement.journal to a file path, or configure [storage].`);
  }
}

/**
 * Thrown under profile `testnet` or `production` when `SVC_MINTER_PK` is unset or equals `SVC_RELAYER_PK`:
 * the account that relays a payer's burn (its calldata names the payer) would also send the mint to the
 * treasury, and a chain observer could pair the two whatever the finalize schedule does.
 */
export class SeparateMinterRequiredError extends BaseError {
  override name = "SeparateMinterRequiredError";
  /** Stable code for log filters and `check`. */
  readonly code = "separate_minter_required";
  /** The variable that must change. */
  readonly variable = "SVC_MINTER_PK";
  /** Which way the rule failed. */
  readonly reason: "unset" | "equals_relayer";

  constructor({ profile, reason }: { profile: string; reason: "unset" | "equals_relayer" }) {
    super(
      `Profile \`${profile}\` needs a minter key of its own: SVC_MINTER_PK ${reason === "unset" ? "is unset" : "equals SVC_RELAYER_PK"}. ` +
        "Set SVC_MINTER_PK to a separate funded key.",
      { details: "one account relaying payers' burns and sending the treasury's mints lets a chain observer link them" },
    );
    this.reason = reason;
  }
}

/** Thrown when the chain id the RPC reports differs from `network.chain_id`. */
export class ChainIdMismatchError extends BaseError {
  override name = "ChainIdMismatchError";
  /** The configured `network.chain_id`. */
  readonly configured: number;
  /** What the RPC reported. */
  readonly reported: number;

  /** The key of the endpoint that reported it (`network.rpc_url` or `network.rpc_urls[i]`), never its URL. */
  readonly key: string;

  constructor({ configured, reported, key = "network.rpc_url" }: { configured: number; reported: number; key?: string | undefined }) {
    super(`network.chain_id is ${configured} but the RPC at ${key} reports chain ${reported}.`);
    this.configured = configured;
    this.reported = reported;
    this.key = key;
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

/**
 * Thrown when `network.protocol` names another version than the deployment at `network.verifier` runs: a
 * burn address derived under the wrong version can never be withdrawn, so the daemon refuses to issue one.
 */
export class ProtocolVersionMismatchError extends BaseError {
  override name = "ProtocolVersionMismatchError";
  /** The configured `network.protocol`. */
  readonly configured: string;
  /** What the deployment answers as, or `unknown` when it answers as no zERC20 verifier. */
  readonly deployed: string;

  constructor({ configured, deployed }: { configured: string; deployed: string | undefined }) {
    super(
      deployed === undefined
        ? `network.protocol is ${configured} but network.verifier answers as no zERC20 verifier (totalTeleported(uint256) does not answer).`
        : `network.protocol is ${configured} but the deployment at network.verifier runs ${deployed}.`,
      { details: "burn addresses of the wrong version can never be withdrawn: set network.protocol to the deployment's version" },
    );
    this.configured = configured;
    this.deployed = deployed ?? "unknown";
  }
}
