/**
 * The daemon's event log: one JSON object per line on stdout with `ts`, `level`, `event` and the event's
 * fields. Everything passes through {@link redact} first, so a careless field can never leak a key, the
 * admin token or a signature.
 */
import { formatPretty } from "./formatPretty.js";
import { LOG_LEVELS, type LogLevel } from "./logLevels.js";
import { redact, redactionSecrets } from "./redact.js";

export { LOG_LEVELS, type LogLevel } from "./logLevels.js";

/** Fields of one event; values must be JSON-serialisable (bigints are written as decimal strings). */
export type LogFields = Record<string, unknown>;

/** Writes one event per call. */
export type Logger = {
  [level in LogLevel]: (event: string, fields?: LogFields) => void;
};

/** Where log lines go and which values must never appear in them. */
export type CreateLoggerOptions = {
  write?: (line: string) => void;
  /** Exact secret values (keys, tokens) to redact wherever they appear. */
  secrets?: readonly string[];
  /** Configured service URLs (RPC, indexer, decider) whose credential parts are redacted wherever they appear. */
  urls?: readonly string[];
  /** Clock, for tests. */
  now?: () => Date;
  /** The lowest level written (default `debug`: everything). */
  level?: LogLevel | undefined;
  /** `json` (default): one JSON object per line; `pretty`: one human-readable line per event, same redaction. */
  format?: "json" | "pretty" | undefined;
};

/** Creates a JSON-lines logger that redacts secrets, credential-bearing URLs and signature-grade hex. */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  const now = options.now ?? (() => new Date());
  const secrets = redactionSecrets(options.secrets ?? [], options.urls ?? []);
  const lowest = LOG_LEVELS.indexOf(options.level ?? "debug");
  const pretty = options.format === "pretty";
  const emit =
    (level: LogLevel) =>
    (event: string, fields: LogFields = {}) => {
      if (LOG_LEVELS.indexOf(level) < lowest) return;
      const record = { ts: now().toISOString(), level, event, ...fields };
      const line = redact(
        JSON.stringify(record, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)),
        secrets,
      );
      // Pretty output is rendered from the redacted JSON, so both forms hide exactly the same values.
      write(`${pretty ? formatPretty(JSON.parse(line) as Record<string, unknown>) : line}\n`);
    };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}
