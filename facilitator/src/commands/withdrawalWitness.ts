/**
 * `facilitator withdrawal-witness <challengeNonce> --config <path> [--url]`: prints one accepted payment's
 * withdrawal witness (burn secret, general recipient, burn) as JSON on standard output, read from the running
 * daemon's admin API with `SVC_ADMIN_TOKEN`. For withdrawing a payment by hand with the protocol's own tools
 * when this facilitator cannot finalize it. Nothing is logged; errors go to standard error without the witness.
 */
import { dirname, resolve } from "node:path";
import { Bytes32Schema } from "@svc/scheme";
import { UsageError } from "./clipanion.js";

import { readConfigToml } from "../config/loadConfig.js";
import { parseConfig } from "../config/parseConfig.js";
import type { Environment } from "../config/parseSecrets.js";
import { fetchWithdrawalWitness } from "../operator/fetchWithdrawalWitness.js";
import { daemonUrl } from "./daemonUrl.js";
import { describeError } from "./describeError.js";
import { redactOutput } from "./redactOutput.js";

/** How long the witness request waits (the daemon may re-derive the burn secret first). */
export const WITNESS_TIMEOUT_MS = 60_000;

/** Parameters of {@link runWithdrawalWitness}. */
export type RunWithdrawalWitnessParameters = {
  configPath: string;
  env: Environment;
  challengeNonce: string;
  url?: string | undefined;
  write: (text: string) => void;
  writeError: (text: string) => void;
};

/**
 * Prints the witness and returns the exit code: 0 printed, 1 when it cannot be read.
 *
 * @example
 * process.exitCode = await runWithdrawalWitness({ configPath: "facilitator.toml", env: process.env, challengeNonce, write, writeError });
 */
export async function runWithdrawalWitness(parameters: RunWithdrawalWitnessParameters): Promise<number> {
  const nonce = Bytes32Schema.safeParse(parameters.challengeNonce);
  if (!nonce.success) throw new UsageError("the payment is its challenge nonce: 0x and 64 hex digits");
  const { env } = parameters;
  try {
    const config = parseConfig(await readConfigToml(parameters.configPath), { configDir: dirname(resolve(parameters.configPath)) });
    const url = parameters.url ?? daemonUrl(config.listen.host, config.listen.port);
    const adminToken = env.SVC_ADMIN_TOKEN === undefined || env.SVC_ADMIN_TOKEN === "" ? undefined : env.SVC_ADMIN_TOKEN;
    const witness = await fetchWithdrawalWitness({ url, adminToken, challengeNonce: nonce.data, timeoutMs: WITNESS_TIMEOUT_MS });
    // Deliberately not passed through redactOutput: the secret is the point of this output.
    parameters.write(`${JSON.stringify(witness, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    parameters.writeError(`${redactOutput(`facilitator withdrawal-witness: ${describeError(error)}`, env)}\n`);
    return 1;
  }
}
