import { readFileSync } from "node:fs";

import { describeError } from "../errors/describeError.js";
import { ApprovalsApproveCommand } from "./approvals/approve.js";
import { ApprovalsDenyCommand } from "./approvals/deny.js";
import { ApprovalsListCommand } from "./approvals/listCommand.js";
import { BINARY_NAME } from "./binaryName.js";
import { type BaseContext, Builtins, Cli, type Command, UsageError } from "./clipanion.js";
import { EXIT_USAGE } from "./exitCodes.js";
import { HistoryCommand } from "./historyCommand.js";
import { environmentHelp } from "./environmentVariables.js";
import { readableUsage, readableUsageStream } from "./readableUsage.js";
import { LedgerCommand } from "./ledgerCommand.js";
import { LimitsCommand } from "./limitsCommand.js";
import { McpCommand } from "./mcpCommand.js";
import { PayCommand } from "./payCommand.js";
import { ProofCommand } from "./proofCommand.js";
import { ProofVerifyCommand } from "./proof/verifyCommand.js";
import { QuoteCommand } from "./quoteCommand.js";
import { ResendCommand } from "./resendCommand.js";
import { TuiCommand } from "./tuiCommand.js";
import { writeJsonLine } from "./writeLine.js";

/** Builds the clipanion `Cli` with every agent command registered. */
export function createCli(): Cli {
  const cli = new Cli({
    binaryLabel: "svc-zerc20 payer agent",
    binaryName: BINARY_NAME,
    binaryVersion: packageVersion(),
    // Plain text: the output lands in scripts and logs as often as on a terminal.
    enableColors: false,
  });
  for (const command of [...AGENT_COMMANDS, Builtins.HelpCommand, Builtins.VersionCommand]) {
    cli.register(command);
  }
  return cli;
}

/** The agent's own commands: run directly so their exit codes pass through; anything else (help, version,
 * and clipanion's per-command `--help`) goes through clipanion. */
const AGENT_COMMANDS = [
  QuoteCommand,
  PayCommand,
  ResendCommand,
  LedgerCommand,
  LimitsCommand,
  ApprovalsListCommand,
  ApprovalsApproveCommand,
  ApprovalsDenyCommand,
  HistoryCommand,
  ProofCommand,
  ProofVerifyCommand,
  TuiCommand,
  McpCommand,
] as const;

/**
 * Runs the command line `argv` (without node and script) and resolves with the exit code. clipanion alone
 * answers 1 for every error, so usage mistakes and configuration errors are mapped to 2 here; a command's
 * own result (0, 1, 3, 4, 5; see `exitCodes.ts`) passes through.
 *
 * @example
 * process.exitCode = await runCli(["pay", "--json", "http://127.0.0.1:4021/weather"], Cli.defaultContext);
 */
export async function runCli(argv: readonly string[], context: BaseContext): Promise<number> {
  const cli = createCli();
  const definitions = cli.definitions();
  if (argv.length === 0) {
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
  if (command.help || !AGENT_COMMANDS.some((type) => command instanceof type)) {
    const code = await cli.run(command, {
      ...context,
      stdout: readableUsageStream(context.stdout, definitions),
      stderr: readableUsageStream(context.stderr, definitions),
    });
    // The general help ends with every variable the agent reads: most of its configuration is there, not in options.
    if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h")) context.stdout.write(`\n${environmentHelp()}`);
    return code;
  }
  command.context = context;
  try {
    return (await command.validateAndExecute()) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      context.stderr.write(readableUsage(cli.error(error, { colored: false, command }), definitions));
      return EXIT_USAGE;
    }
    // Loaded only here: the error classes extend `@svc/scheme`'s `BaseError`, and its package index pulls in
    // the cryptography that help and usage never need.
    const { exitCodeForError } = await import("./exitCodeForError.js");
    const code = exitCodeForError(error);
    const message = describeError(error);
    // A script reading `--json` output gets its one line even when the command could not run.
    if (Reflect.get(command, "json") === true) {
      writeJsonLine(context.stdout, { result: "error", error: error instanceof Error ? error.name : "Error", message });
    }
    context.stderr.write(`${BINARY_NAME}: ${message}\n`);
    return code;
  }
}

/** The package version, read at run time: `src` and `dist` sit at the same depth under the package. */
function packageVersion(): string {
  try {
    const manifest: unknown = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    const version = typeof manifest === "object" && manifest !== null ? Reflect.get(manifest, "version") : undefined;
    return typeof version === "string" ? version : "unknown";
  } catch {
    return "unknown";
  }
}
