/**
 * The `facilitator` command line: `check`, `start`, help and version, with the exit codes operators script
 * against: 0 ok, 1 problems or startup failure, 2 usage mistakes. clipanion alone returns 1 for every
 * error, so parsing and `UsageError`s are handled here to give usage mistakes their own code.
 */
import { readFileSync } from "node:fs";
import { Builtins, Cli, UsageError, type BaseContext, type Command } from "./clipanion.js";
import { readableUsage, readableUsageStream } from "./readableUsage.js";

// Only the command definitions: each loads its implementation when it runs, so help and usage stay quick.
import { CheckCommand } from "./checkCommand.js";
import { ExportCommand } from "./exportCommand.js";
import { HistoryKeysInitCommand } from "./history/historyKeys/initCommand.js";
import { HistoryKeysRevokeCommand } from "./history/historyKeys/revokeCommand.js";
import { HistoryKeysRotateCommand } from "./history/historyKeys/rotateCommand.js";
import { VerifyProofCommand } from "./history/verifyProofCommand.js";
import { ImportCommand } from "./importCommand.js";
import { MigrateCommand } from "./migrateCommand.js";
import { StartCommand } from "./startCommand.js";
import { StatusCommand } from "./statusCommand.js";
import { WithdrawalWitnessCommand } from "./withdrawalWitnessCommand.js";

/** Exit code for a usage mistake (unknown command, missing or malformed option). */
export const EXIT_USAGE = 2;

/** Commands whose usage mistakes exit 2 and whose unexpected errors print one redacted line. */
const OWN_EXIT_CODES = [
  CheckCommand,
  MigrateCommand,
  StartCommand,
  StatusCommand,
  WithdrawalWitnessCommand,
  VerifyProofCommand,
  HistoryKeysInitCommand,
  HistoryKeysRotateCommand,
  HistoryKeysRevokeCommand,
];

/** Builds the clipanion `Cli` with every facilitator command registered. */
export function createCli(): Cli {
  const cli = new Cli({
    binaryLabel: "svc-zerc20 settlement facilitator",
    // The installed command (`bin` in package.json), so help and usage name what a user can type.
    binaryName: "svc-facilitator",
    binaryVersion: packageVersion(),
    // Plain text everywhere: the output lands in CI logs and scripts as often as on a terminal.
    enableColors: false,
  });
  cli.register(CheckCommand);
  cli.register(MigrateCommand);
  cli.register(ExportCommand);
  cli.register(ImportCommand);
  cli.register(StartCommand);
  cli.register(StatusCommand);
  cli.register(WithdrawalWitnessCommand);
  cli.register(VerifyProofCommand);
  cli.register(HistoryKeysInitCommand);
  cli.register(HistoryKeysRotateCommand);
  cli.register(HistoryKeysRevokeCommand);
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  return cli;
}

/**
 * Runs the command line `argv` (without the node and script arguments) and resolves with the exit code.
 *
 * @example
 * process.exitCode = await runCli(["check", "--config", "facilitator.toml"], Cli.defaultContext);
 */
export async function runCli(argv: readonly string[], context: BaseContext): Promise<number> {
  const cli = createCli();
  const definitions = cli.definitions();
  if (argv.length === 0) {
    // A bare `facilitator` is a usage mistake in scripts; the command list goes where errors go.
    context.stderr.write(readableUsage(cli.usage(), definitions));
    return EXIT_USAGE;
  }
  let command: Command;
  try {
    command = cli.process([...argv], context);
  } catch (error) {
    context.stderr.write(readableUsage(cli.error(error, { colored: false }), definitions));
    return EXIT_USAGE;
  }
  if (!OWN_EXIT_CODES.some((type) => command instanceof type) || command.help) {
    return cli.run(command, { ...context, stdout: readableUsageStream(context.stdout, definitions), stderr: readableUsageStream(context.stderr, definitions) });
  }
  command.context = context;
  try {
    return (await command.validateAndExecute()) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      context.stderr.write(readableUsage(cli.error(error, { colored: false, command }), definitions));
      return EXIT_USAGE;
    }
    // clipanion would print the message and stack of an unexpected error; a library message can quote a URL
    // with its API key, so only the redacted first line is shown. Loaded here: `describeError` knows the
    // scheme's error classes, which help and usage have no need of.
    const [{ describeError }, { redactOutput }] = await Promise.all([import("./describeError.js"), import("./redactOutput.js")]);
    context.stderr.write(`${redactOutput(`svc-facilitator: unexpected error: ${describeError(error)}`, context.env)}\n`);
    return 1;
  }
}

/** The package version, read at run time because `src` and `dist` sit at the same depth under the package. */
function packageVersion(): string {
  try {
    const manifest: unknown = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    const version = typeof manifest === "object" && manifest !== null ? Reflect.get(manifest, "version") : undefined;
    return typeof version === "string" ? version : "unknown";
  } catch {
    return "unknown";
  }
}
