/**
 * The human-readable form of one log record, for a terminal (`start --pretty`, or stdout is a TTY):
 * `03:04:05.000 INFO  started listen=127.0.0.1:4032 chain_id=31337`. It is built from the record after
 * redaction, so it can show nothing the JSON line would not.
 */

const LEVEL_LABELS: Readonly<Record<string, string>> = { debug: "DEBUG", info: "INFO ", warn: "WARN ", error: "ERROR" };

/** Formats a redacted record `{ ts, level, event, ...fields }` as one line (without the newline). */
export function formatPretty(record: Record<string, unknown>): string {
  const { ts, level, event, ...fields } = record;
  const time = typeof ts === "string" ? ts.slice(11, 23) : "";
  const label = LEVEL_LABELS[String(level)] ?? String(level).toUpperCase();
  const rest = Object.entries(fields).map(([key, value]) => `${key}=${formatValue(value)}`);
  return [time, label, String(event), ...rest].filter((part) => part !== "").join(" ");
}

function formatValue(value: unknown): string {
  if (typeof value === "string") return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}
