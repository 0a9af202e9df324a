/**
 * The provider's log line: one JSON object with `ts`, `level` and `event` first, the shape the facilitator
 * logs, so one log pipeline reads both programs.
 */

/** Severity of a provider log event. */
export type ProviderLogLevel = "debug" | "info" | "warn" | "error";

/** Serialises one event as a JSON line (without the newline). */
export function logLine(level: ProviderLogLevel, event: string, fields: Record<string, unknown> = {}, now: Date = new Date()): string {
  return JSON.stringify({ ts: now.toISOString(), level, event, ...fields });
}
