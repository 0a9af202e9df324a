/**
 * `facilitator withdrawal-witness <challengeNonce> --config <path> [--url]`: prints one accepted payment's
 * withdrawal witness (burn secret, general recipient, burn) as JSON on standard output, read from the running
 * daemon's admin API with `SVC_ADMIN_TOKEN`. For withdrawing a payment by hand with the protocol's own tools
 * when this facilitator cannot finalize it. Nothing is logged; errors go to standard error without the witness.
 */
import { dirname, resolve } from "node:path";
import { Bytes32Schema } from "@svc/scheme";
import { Command, Option, UsageError } from "./clipanion.js";

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

/** The `withdrawal-witness` command. */
export class WithdrawalWitnessCommand extends Command {
  static override paths = [["withdrawal-witness"]];

  static override usage = Command.Usage({
    description: "print an accepted payment's withdrawal witness (its burn secret) for withdrawing it by hand",
    details: `
      Asks the running daemon (\`listen.host\`, \`listen.port\`, or \`--url\`) for the withdrawal witness of the payment whose challenge nonce is given, with the admin token from \`SVC_ADMIN_TOKEN\`, and prints it as JSON on standard output: protocol version, chain, token and verifier, the burn transaction and address, the general recipient (chain id, treasury as bytes32, tweak), the recipient hash and the burn secret.

      The witness lets anyone holding it mint the payment to the treasury with the protocol's own tools, and it links the burn to its mint: use it only when this facilitator cannot finalize the payment, keep it off shared terminals and logs, and delete it afterwards. It is never logged by the daemon.

      Exits 0 when printed, 1 when the daemon cannot be read, the token is refused or the payment is unknown, 2 for usage mistakes.
    `,
    examples: [["The witness of one payment of the local stack", "$0 withdrawal-witness 0x… --config .stack/facilitator.toml > witness.json"]],
  });

  challengeNonce = Option.String({ name: "challengeNonce", required: true });

  config = Option.String("--config", { required: true, description: "path of the facilitator TOML configuration file" });

  url = Option.String("--url", { description: "the daemon's base URL (default: from listen.host and listen.port)" });

  override async execute(): Promise<number> {
    if (this.config.trim() === "") throw new UsageError("--config needs the path of a TOML file");
    if (this.url !== undefined && !(URL.canParse(this.url) && ["http:", "https:"].includes(new URL(this.url).protocol))) {
      throw new UsageError("--url must be an http(s) URL");
    }
    return runWithdrawalWitness({
      configPath: this.config,
      env: this.context.env,
      challengeNonce: this.challengeNonce,
      url: this.url,
      write: (text) => this.context.stdout.write(text),
      writeError: (text) => this.context.stderr.write(text),
    });
  }
}
