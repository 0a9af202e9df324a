import { readFileSync } from "node:fs";

import { ApprovalInterruptedError, ApprovalNotFoundError } from "../approvals/errors.js";
import { describeError } from "../errors/describeError.js";
import { LedgerEntryNotFoundError } from "../ledger/errors.js";
import { PaymentIdFormatError } from "../ledger/paymentId.js";
import { FacilitatorUrlMissingError, HistoryKeyMissingError, PaymentNotRecordedError, TrustAnchorUnreadableError } from "../history/errors.js";
import { HostNotAllowedError } from "../http/errors.js";
import { PayerKeyMissingError, PolicyConfigError } from "../policy/errors.js";
import { ApprovalsApproveCommand } from "./approvals/approve.js";
import { ApprovalsDenyCommand } from "./approvals/deny.js";
import { ApprovalsListCommand } from "./approvals/list.js";
import { BINARY_NAME } from "./binaryName.js";
import { type BaseContext, Builtins, Cli, type Command, UsageError } from "./clipanion.js";
import { EXIT_DECLINED, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE } from "./exitCodes.js";
import { HistoryCommand } from "./history.js";
import { readableUsage, readableUsageStream } from "./readableUsage.js";
import { LedgerCommand } from "./ledger.js";
import { McpCommand } from "./mcp.js";
import { PayCommand } from "./pay.js";
import { ProofCommand } from "./proof.js";
import { ProofVerifyCommand } from "./proof/verify.js";
import { QuoteCommand } from "./quote.js";
import { ResendCommand } from "./resend.js";
import { TuiCommand } from "./tui.js";
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
  if (argv.length === 0) {
    context.stderr.write(readableUsage(cli.usage()));
    return EXIT_USAGE;
  }
  let command: Command;
  try {
    command = cli.process([...argv], context);
  } catch (error) {
    context.stderr.write(readableUsage(cli.error(error, { colored: false })));
    return EXIT_USAGE;
  }
  if (command.help || !AGENT_COMMANDS.some((type) => command instanceof type)) {
    return cli.run(command, { ...context, stdout: readableUsageStream(context.stdout), stderr: readableUsageStream(context.stderr) });
  }
  command.context = context;
  try {
    return (await command.validateAndExecute()) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      context.stderr.write(readableUsage(cli.error(error, { colored: false, command })));
      return EXIT_USAGE;
    }
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

/** Errors that mean the command line or its environment was wrong: a missing or malformed setting, or an id that names nothing. */
const USAGE_ERRORS = [
  PolicyConfigError,
  PayerKeyMissingError,
  FacilitatorUrlMissingError,
  HistoryKeyMissingError,
  ApprovalNotFoundError,
  LedgerEntryNotFoundError,
  PaymentIdFormatError,
  PaymentNotRecordedError,
  TrustAnchorUnreadableError,
];

/** The exit code of a command that threw instead of returning its own result. */
function exitCodeForError(error: unknown): number {
  if (USAGE_ERRORS.some((type) => error instanceof type)) return EXIT_USAGE;
  if (error instanceof ApprovalInterruptedError) return EXIT_INTERRUPTED;
  // Commands that pay or quote turn a refused host into their own result; one reaching here is still a policy refusal.
  return error instanceof HostNotAllowedError ? EXIT_DECLINED : EXIT_FAILED;
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
