/**
 * `facilitator status --config <path> [--url] [--json] [--limit]`: what a running daemon is doing, read through
 * its HTTP API (readiness, backlog counts and oldest ages, failed entries with reasons, late burns, the stock
 * with its target and rates, the Poseidon path, relayer and treasury balances). It never opens the journal or touches the chain itself.
 */
import { dirname, resolve } from "node:path";

import { Command, Option, UsageError } from "./clipanion.js";

import { readConfigToml } from "../config/loadConfig.js";
import { parseConfig } from "../config/parseConfig.js";
import type { Environment } from "../config/parseSecrets.js";
import { fetchDaemonStatus, type DaemonStatus } from "../operator/fetchDaemonStatus.js";
import { formatDaemonStatus } from "../operator/formatDaemonStatus.js";
import { daemonUrl } from "./daemonUrl.js";
import { describeError } from "./describeError.js";
import { redactOutput } from "./redactOutput.js";

/** Failed entries and late burns listed by default. */
export const DEFAULT_STATUS_LIMIT = 20;

/** How long each status request waits. */
export const STATUS_TIMEOUT_MS = 10_000;

/** Parameters of {@link runStatus}. */
export type RunStatusParameters = {
  configPath: string;
  env: Environment;
  /** The daemon's base URL; by default derived from `listen.host` and `listen.port`. */
  url?: string | undefined;
  limit?: number | undefined;
  format?: "text" | "json" | undefined;
  write: (text: string) => void;
  writeError: (text: string) => void;
};

/**
 * Prints the status and returns the exit code: 0 when the daemon is ready, 1 when it is not ready or cannot
 * be read.
 *
 * @example
 * process.exitCode = await runStatus({ configPath: "facilitator.toml", env: process.env, write, writeError });
 */
export async function runStatus(parameters: RunStatusParameters): Promise<number> {
  const { env } = parameters;
  let status: DaemonStatus;
  try {
    const config = parseConfig(await readConfigToml(parameters.configPath), { configDir: dirname(resolve(parameters.configPath)) });
    const url = parameters.url ?? daemonUrl(config.listen.host, config.listen.port);
    const adminToken = env.SVC_ADMIN_TOKEN === undefined || env.SVC_ADMIN_TOKEN === "" ? undefined : env.SVC_ADMIN_TOKEN;
    status = await fetchDaemonStatus({ url, adminToken, limit: parameters.limit ?? DEFAULT_STATUS_LIMIT, timeoutMs: STATUS_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    parameters.writeError(`${redactOutput(`facilitator status: ${describeError(error)}`, env)}\n`);
    return 1;
  }
  const text = parameters.format === "json" ? `${JSON.stringify(status)}\n` : formatDaemonStatus(status);
  parameters.write(redactOutput(text, env));
  return status.readiness.status === "ready" ? 0 : 1;
}

/** The `status` command. */
export class StatusCommand extends Command {
  static override paths = [["status"]];

  static override usage = Command.Usage({
    description: "summarise a running facilitator daemon through its admin API",
    details: `
      Reads \`/readyz\`, \`/admin/status\` and the failed and late-burn pages of \`/admin/settlements\` from the daemon the configuration describes (\`listen.host\`, \`listen.port\`), with the admin token from \`SVC_ADMIN_TOKEN\`. Prints readiness (and the failing components), the backlog per state with the age of its oldest entry, open challenges, failed entries with their reasons, late burns, the burn-address stock (ready, deriving, the target size within its floor and ceiling, the offer and derivation rates per second, and how long the ready stock lasts at the current rate), the Poseidon implementation and search path, and the relayer and treasury balances.

      Exits 0 when the daemon is ready, 1 when it is not ready or cannot be read, 2 for usage mistakes.
    `,
    examples: [
      ["Status of the local stack's daemon", "$0 status --config .stack/facilitator.toml"],
      ["Machine-readable", "$0 status --config facilitator.toml --json"],
      ["A daemon behind another address", "$0 status --config facilitator.toml --url http://10.0.0.5:4032"],
    ],
  });

  config = Option.String("--config", { required: true, description: "path of the facilitator TOML configuration file" });

  url = Option.String("--url", { description: "the daemon's base URL (default: from listen.host and listen.port)" });

  limit = Option.String("--limit", { description: `failed entries and late burns to list (default ${DEFAULT_STATUS_LIMIT}, at most 1000)` });

  json = Option.Boolean("--json", false, { description: "print one JSON object instead of the summary" });

  override async execute(): Promise<number> {
    if (this.config.trim() === "") throw new UsageError("--config needs the path of a TOML file");
    if (this.url !== undefined && !(URL.canParse(this.url) && ["http:", "https:"].includes(new URL(this.url).protocol))) {
      throw new UsageError("--url must be an http(s) URL");
    }
    return runStatus({
      configPath: this.config,
      env: this.context.env,
      url: this.url,
      limit: parseLimit(this.limit),
      format: this.json ? "json" : "text",
      write: (text) => this.context.stdout.write(text),
      writeError: (text) => this.context.stderr.write(text),
    });
  }
}

function parseLimit(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^[0-9]+$/.test(raw) || value < 1 || value > 1000) throw new UsageError("--limit must be a whole number from 1 to 1000");
  return value;
}
