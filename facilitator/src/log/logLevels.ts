/**
 * The log's severities on their own, so the `start` command's options can name them without loading the
 * logger.
 */

/** The severities, lowest first; a logger writes its level and those after it. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;

/** Severity of a log event. */
export type LogLevel = (typeof LOG_LEVELS)[number];
