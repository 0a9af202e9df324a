/**
 * The `check` command's definition: its path, usage and options, light enough that help and usage load no
 * probe. The work is `runCheck` in `check.ts`, imported when the command runs.
 */
import { Command, Option, UsageError } from "./clipanion.js";

/** How long each network probe waits for an answer by default: long enough for a slow RPC, short enough to run by hand. */
export const DEFAULT_CHECK_TIMEOUT_MS = 5_000;

/** The `check` command: prints the findings of {@link runCheck} and exits 1 when any is a problem. */
export class CheckCommand extends Command {
  static override paths = [["check"]];

  static override usage = Command.Usage({
    description: "probe a facilitator configuration before starting the daemon",
    details: `
      Reads the configuration file and the secrets from the environment (\`SVC_TREASURY_PK\`, \`SVC_RELAYER_PK\`, \`SVC_MINTER_PK\` when set, \`SVC_ADMIN_TOKEN\`), then probes the startup rules, the providers (\`[providers.*]\`, required outside profile local), the payment history and proof variables exactly as \`start\` would refuse them, the RPC and its chain id, the deployed contracts, the fee splitter (split fee mode), the journal folder, the PostgreSQL database and its schema version (\`[storage]\`, password from \`SVC_STORAGE_PASSWORD\`), the indexer, the prover's circuit files (\`prover.kind = "snarkjs"\`: readable, and proving the single-teleport statement of \`network.protocol\`) and which Poseidon implementation and search path burn addresses derive with (\`SVC_POSEIDON\`, \`SVC_POSEIDON_PATH\`). The decider is not probed.

      Prints one line per finding: \`✓\` passed, \`⚠\` warning, \`✗\` problem, \`-\` skipped. Exits 0 when the last line says the configuration checks out, 1 when any line is marked \`✗\`. Secret values are never printed and URLs are shown credential-redacted.
    `,
    examples: [
      ["Check the local stack configuration", "$0 check --config .stack/facilitator.toml"],
      ["Machine-readable findings", "$0 check --config facilitator.toml --json"],
      ["Load the secrets from an env file first", "set -a && . .stack/facilitator.env && set +a && $0 check --config .stack/facilitator.toml"],
    ],
  });

  config = Option.String("--config", {
    required: true,
    description: "path of the facilitator TOML configuration file",
  });

  timeout = Option.String("--timeout-ms", {
    description: `how long each network probe waits, in milliseconds (default ${DEFAULT_CHECK_TIMEOUT_MS})`,
  });

  json = Option.Boolean("--json", false, {
    description: "print one JSON object per finding, then a summary object `{ result, problems, warnings }`",
  });

  override async execute(): Promise<number> {
    if (this.config.trim() === "") throw new UsageError("--config needs the path of a TOML file");
    const timeoutMs = parseTimeout(this.timeout);
    const { countProblems, runCheck } = await import("./check.js");
    const findings = await runCheck({
      configPath: this.config,
      env: this.context.env,
      write: (text) => this.context.stdout.write(text),
      timeoutMs,
      format: this.json ? "json" : "text",
    });
    return countProblems(findings) > 0 ? 1 : 0;
  }
}

function parseTimeout(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(value) || value < 1 || value > 600_000) {
    throw new UsageError("--timeout-ms must be a whole number of milliseconds between 1 and 600000");
  }
  return value;
}
