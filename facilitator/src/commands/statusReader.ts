/**
 * Where `facilitator status` reads from: the daemon the configuration describes (or `--url`), with the admin
 * token from `SVC_ADMIN_TOKEN`.
 */
import { dirname, resolve } from "node:path";

import { readConfigToml } from "../config/loadConfig.js";
import { parseConfig } from "../config/parseConfig.js";
import type { Environment } from "../config/parseSecrets.js";
import { fetchDaemonStatus, type DaemonStatus } from "../operator/fetchDaemonStatus.js";
import { daemonUrl } from "./daemonUrl.js";
import { DEFAULT_STATUS_LIMIT } from "./statusCommand.js";

/** How long each status request waits. */
export const STATUS_TIMEOUT_MS = 10_000;

/** The daemon to read and how much of it. */
export type StatusTarget = {
  configPath: string;
  env: Environment;
  /** The daemon's base URL; by default derived from `listen.host` and `listen.port`. */
  url?: string | undefined;
  limit?: number | undefined;
};

/** Reads the configuration once; the reader it returns asks the daemon each time it is called. */
export async function statusReader(parameters: StatusTarget): Promise<() => Promise<DaemonStatus>> {
  const { env } = parameters;
  const config = parseConfig(await readConfigToml(parameters.configPath), { configDir: dirname(resolve(parameters.configPath)) });
  const url = parameters.url ?? daemonUrl(config.listen.host, config.listen.port);
  const adminToken = env.SVC_ADMIN_TOKEN === undefined || env.SVC_ADMIN_TOKEN === "" ? undefined : env.SVC_ADMIN_TOKEN;
  return () => fetchDaemonStatus({ url, adminToken, limit: parameters.limit ?? DEFAULT_STATUS_LIMIT, timeoutMs: STATUS_TIMEOUT_MS });
}
