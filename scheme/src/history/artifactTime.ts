import { z } from "zod";

const RFC3339_UTC_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * Writes unix seconds as the one timestamp form artifacts use: RFC 3339 in UTC with whole seconds
 * (`2030-01-02T03:04:05Z`). One form per instant keeps signed bytes reproducible.
 *
 * @example
 * formatArtifactTime(0); // "1970-01-01T00:00:00Z"
 */
export function formatArtifactTime(unixSeconds: number): string {
  return new Date(Math.floor(unixSeconds) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Reads an artifact timestamp back as unix seconds; the value must already have passed {@link ArtifactTimeSchema}. */
export function parseArtifactTime(value: string): number {
  return Date.parse(value) / 1000;
}

/** An artifact timestamp: RFC 3339, UTC, whole seconds, a real calendar instant. */
export const ArtifactTimeSchema = z
  .string()
  .regex(RFC3339_UTC_SECONDS, { error: "expected an RFC 3339 UTC time with whole seconds, like 2030-01-02T03:04:05Z", abort: true })
  .refine((value) => !Number.isNaN(Date.parse(value)) && formatArtifactTime(Date.parse(value) / 1000) === value, {
    error: "not a real calendar time",
  });
