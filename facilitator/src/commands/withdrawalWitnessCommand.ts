/**
 * The `withdrawal-witness` command's definition: its path, usage and options, light enough that help and
 * usage load no scheme or HTTP client. The work is `runWithdrawalWitness` in `withdrawalWitness.ts`, imported
 * when the command runs.
 */
import { Command, Option, UsageError } from "./clipanion.js";

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
    const { runWithdrawalWitness } = await import("./withdrawalWitness.js");
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
