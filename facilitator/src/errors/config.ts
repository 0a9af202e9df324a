/**
 * Errors for a configuration file that cannot be used. Each names the offending key (dotted path, as in
 * the TOML file) and why; none quotes a value, because a URL can carry credentials and a key pasted into
 * the file by mistake must not reach a log.
 */
import { BaseError } from "./base.js";

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
      metaMessages: looksSecret
        ? ["Secrets are never read from the file: set SVC_TREASURY_PK, SVC_RELAYER_PK, SVC_ADMIN_TOKEN instead."]
        : undefined,
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
export type ConfigError =
  | UnknownConfigKeyError
  | MissingConfigKeyError
  | InvalidConfigValueError
  | FeeModeError
  | SplitterMismatchError;
