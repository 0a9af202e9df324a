import { UsageError } from "./clipanion.js";

/**
 * Reads a time option as unix seconds: whole unix seconds, or an ISO 8601 / RFC 3339 time with a zone
 * (`2030-01-01T00:00:00Z`). A time without a zone is refused: read in local time it would shift by the
 * operator's offset, which for an expiry or revocation check changes the answer.
 */
export function parseTimeOption(raw: string, option: string): number {
  if (/^[0-9]{1,12}$/.test(raw)) return Number(raw);
  const parsed = Date.parse(raw);
  if (!/(Z|[+-]\d{2}:\d{2})$/i.test(raw) || Number.isNaN(parsed)) {
    throw new UsageError(`${option} must be unix seconds or an RFC 3339 time with a zone, like 2030-01-01T00:00:00Z`);
  }
  return Math.floor(parsed / 1000);
}
