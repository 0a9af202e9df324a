/**
 * The `start` command's definition: its path, usage and options, light enough that help and usage load no
 * daemon. The work is `runStart` in `start.ts`, imported when the command runs.
 */
import { Command, Option, UsageError } from "./clipanion.js";

import { LOG_LEVELS, type LogLevel } from "../log/logLevels.js";

/** The `start` command: runs the daemon in the foreground until SIGTERM or SIGINT. */
export class StartCommand extends Command {
  static override paths = [["start"]];

  static override usage = Command.Usage({
    description: "run the facilitator daemon in the foreground",
    details: `
      Loads the configuration file and the secrets from the environment, applies the startup rules, restores pending work from \`settlement.journal\` (or, with \`[storage]\`, the database) and serves the payment API. Logs one JSON line per event on stdout; the \`started\` event (with \`listen\` and \`chain_id\`) marks readiness.

      SIGTERM or SIGINT stops accepting requests and waits up to \`daemon.shutdown_grace_ms\` for work in flight, then exits 0. When startup fails, a \`start_failed\` event (\`error\`, \`cause\`, and the redacted \`url\` and \`errno\` such as EADDRINUSE when known) goes to stdout, one line naming the problem to stderr, and the exit code is 1. \`--log-level\` sets the lowest level logged (default \`daemon.log_level\`); \`--pretty\` prints readable lines instead of JSON, the default on a terminal. Run \`check\` first to see every problem at once.
    `,
    examples: [["Start against the local stack", "$0 start --config .stack/facilitator.toml"]],
  });

  config = Option.String("--config", {
    required: true,
    description: "path of the facilitator TOML configuration file",
  });

  logLevel = Option.String("--log-level", {
    description: `lowest level logged: ${LOG_LEVELS.join(", ")} (default: daemon.log_level, else info)`,
  });

  pretty = Option.Boolean("--pretty", {
    description: "human-readable log lines instead of JSON (the default when stdout is a terminal; --no-pretty forces JSON)",
  });

  override async execute(): Promise<number> {
    if (this.config.trim() === "") throw new UsageError("--config needs the path of a TOML file");
    const logLevel = this.logLevel;
    if (logLevel !== undefined && !isLogLevel(logLevel)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(", ")}`);
    const stdout = this.context.stdout as NodeJS.WritableStream & { isTTY?: boolean };
    const { runStart } = await import("./start.js");
    return runStart({
      configPath: this.config,
      env: this.context.env,
      write: (line) => this.context.stdout.write(line),
      writeError: (text) => this.context.stderr.write(text),
      logLevel,
      pretty: this.pretty ?? stdout.isTTY === true,
    });
  }
}

function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}
