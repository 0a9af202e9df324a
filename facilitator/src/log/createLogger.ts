/**
 * The daemon's event log: one JSON object per line on stdout with `ts`, `level`, `event` and the event's
 * fields. Everything passes through {@link redact} first, so a careless field can never leak a key, the
 * admin token or a signature.
 */
import { redact, redactionSecrets } from "./redact.js";

/** Severity of a log event. */
export type LogLevel = "debug" | "info" | "warn" | "error";

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
};

/** Creates a JSON-lines logger that redacts secrets, credential-bearing URLs and signature-grade hex. */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  const now = options.now ?? (() => new Date());
  const secrets = redactionSecrets(options.secrets ?? [], options.urls ?? []);
  const emit = (level: LogLevel) => (event: string, fields: LogFields = {}) => {
    const record = { ts: now().toISOString(), level, event, ...fields };
    write(`${redact(JSON.stringify(record, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)), secrets)}\n`);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}
