/**
 * `facilitator status --config <path> [--url] [--json] [--limit] [--watch [--interval]]`: what a running daemon is doing, read through
 * its HTTP API (readiness, backlog counts and oldest ages, failed entries with reasons, late burns, the stock
 * with its target and rates, the Poseidon path, relayer and treasury balances). It never opens the journal or touches the chain itself.
 */
import { UsageError } from "./clipanion.js";

import type { Environment } from "../config/parseSecrets.js";
import type { DaemonStatus } from "../operator/fetchDaemonStatus.js";
import { formatDaemonStatus } from "../operator/formatDaemonStatus.js";
import { describeError } from "./describeError.js";
import { redactOutput } from "./redactOutput.js";
import { statusReader } from "./statusReader.js";

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
  let status: DaemonStatus;
  try {
    status = await (await statusReader(parameters))();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    parameters.writeError(`${redactOutput(`facilitator status: ${describeError(error)}`, parameters.env)}\n`);
    return 1;
  }
  const text = parameters.format === "json" ? `${JSON.stringify(status)}\n` : formatDaemonStatus(status);
  parameters.write(redactOutput(text, parameters.env));
  return status.readiness.status === "ready" ? 0 : 1;
}
