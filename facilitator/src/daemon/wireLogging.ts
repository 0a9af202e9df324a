/**
 * The daemon's loggers: one at the configured level and one for the `started` readiness marker. Both redact
 * every secret and credential URL the configuration and environment carry, so no later layer has to.
 */
import type { LoadConfigReturnType } from "../config/loadConfig.js";
import type { Environment } from "../config/parseSecrets.js";
import { historySecretValues } from "../history/openHistory.js";
import { createLogger, type Logger, type LogLevel } from "../log/createLogger.js";
import { storagePassword } from "../storage/storageConnection.js";

/** What {@link wireLogging} reads. */
export type LoggingParts = Pick<LoadConfigReturnType, "config" | "secrets"> & {
  env: Environment;
  write: ((line: string) => void) | undefined;
  /** Overrides `daemon.log_level`. */
  logLevel: LogLevel | undefined;
  pretty: boolean | undefined;
};

/** The daemon's loggers. */
export type LoggingWiring = {
  logger: Logger;
  /** Writes `started` whatever the configured level. */
  marker: Logger;
};

/** Builds the loggers. */
export function wireLogging({ config, secrets, env, write, logLevel, pretty }: LoggingParts): LoggingWiring {
  const loggerOptions = {
    write,
    secrets: [
      secrets.treasuryPk,
      secrets.relayerPk,
      ...(secrets.minterPk ? [secrets.minterPk] : []),
      ...(secrets.adminToken ? [secrets.adminToken] : []),
      ...[storagePassword(env)].filter((password) => password !== undefined),
      ...historySecretValues(env),
    ],
    urls: [
      ...config.network.rpc_urls,
      config.network.indexer_url,
      config.network.decider_url,
      ...(config.storage ? [config.storage.url] : []),
      ...(config.prover.kind === "http" ? [config.prover.url] : []),
    ],
    format: pretty ? ("pretty" as const) : ("json" as const),
  };
  const logger = createLogger({ ...loggerOptions, level: logLevel ?? config.daemon.log_level });
  // `started` is the readiness marker supervisors wait for: it is written whatever the configured level.
  const marker = createLogger(loggerOptions);
  return { logger, marker };
}
