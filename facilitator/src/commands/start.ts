/**
 * `facilitator start --config <path>`: runs the daemon in the foreground until SIGTERM or SIGINT. The daemon
 * itself logs one JSON line per event on stdout (`started` is the readiness marker); this command adds only
 * the process lifecycle: a one-line reason on stderr and exit 1 when startup fails, and on a signal a
 * graceful stop (bounded by `daemon.shutdown_grace_ms`) and exit 0.
 */
import type { Environment } from "../config/index.js";
import { startDaemon, type RunningDaemon, type StartDaemonOptions } from "../daemon/startDaemon.js";
import { historySecretValues } from "../history/parseHistoryEnvironment.js";
import { createLogger, type LogLevel } from "../log/createLogger.js";
import { describeError } from "./describeError.js";
import { describeStartFailure, formatStartFailure } from "./describeStartFailure.js";
import { redactOutput, SECRET_VARIABLES } from "./redactOutput.js";

/** The signals that stop the daemon gracefully. */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGTERM", "SIGINT"];

/** Parameters of {@link runStart}. */
export type RunStartParameters = {
  /** Path of the TOML configuration file. */
  configPath: string;
  /** Where the secrets come from (`process.env` in the CLI). */
  env: Environment;
  /** Receives the daemon's JSON log lines (newline-terminated); the daemon's default is stdout. */
  write?: ((line: string) => void) | undefined;
  /** Receives the one-line startup or shutdown failure (newline-terminated). */
  writeError: (text: string) => void;
  /**
   * Resolves when the daemon should stop. Defaults to the first of {@link STOP_SIGNALS}; tests pass their
   * own so they need not signal the test runner's process.
   */
  stopRequested?: Promise<unknown> | undefined;
  /** The daemon entry point; replaceable so argument and failure handling can be tested without a chain. */
  start?: ((options: StartDaemonOptions) => Promise<Pick<RunningDaemon, "stop">>) | undefined;
  /** Lowest level logged; overrides `daemon.log_level`. */
  logLevel?: LogLevel | undefined;
  /** Human-readable log lines instead of JSON. */
  pretty?: boolean | undefined;
};

/**
 * Starts the daemon, waits for the stop request, stops it, and returns the exit code: 0 after a clean stop,
 * 1 when startup or shutdown fails.
 *
 * @example
 * process.exitCode = await runStart({ configPath: "facilitator.toml", env: process.env, writeError: (t) => process.stderr.write(t) });
 */
export async function runStart(parameters: RunStartParameters): Promise<number> {
  const { configPath, env, write, writeError, logLevel, pretty } = parameters;
  const start = parameters.start ?? startDaemon;
  // Listening before startup begins means a signal during startup stops the daemon as soon as it is up,
  // instead of killing the process halfway through opening the journal.
  const signal = parameters.stopRequested === undefined ? waitForSignal(STOP_SIGNALS) : undefined;
  const stopRequested = parameters.stopRequested ?? signal?.received;
  try {
    let daemon: Pick<RunningDaemon, "stop">;
    try {
      daemon = await start({ configPath, env, logLevel, pretty, ...(write === undefined ? {} : { write }) });
    } catch (error) {
      const failure = describeStartFailure(error);
      // The log stream gets the failure as an event like every other, before the one line for people.
      const logger = createLogger({
        ...(write === undefined ? {} : { write }),
        secrets: [...SECRET_VARIABLES.flatMap((name) => (env[name] ? [env[name]] : [])), ...historySecretValues(env)],
        format: pretty ? "pretty" : "json",
      });
      logger.error("start_failed", { ...failure, cause: redactOutput(failure.cause, env) });
      writeError(`${redactOutput(formatStartFailure(failure), env)}\n`);
      return 1;
    }
    await stopRequested;
    try {
      await daemon.stop();
    } catch (error) {
      writeError(`${redactOutput(`facilitator did not stop cleanly: ${describeError(error)}`, env)}\n`);
      return 1;
    }
    return 0;
  } finally {
    signal?.dispose();
  }
}

/** A promise settled by the first of `signals`, and a way to remove the listeners again. */
function waitForSignal(signals: readonly NodeJS.Signals[]): { received: Promise<NodeJS.Signals>; dispose: () => void } {
  let onSignal: (signal: NodeJS.Signals) => void = () => undefined;
  const received = new Promise<NodeJS.Signals>((resolve) => {
    onSignal = resolve;
  });
  // The listeners stay until dispose, so a second signal during the bounded stop is absorbed, not fatal.
  for (const signal of signals) process.on(signal, onSignal);
  return {
    received,
    dispose: () => {
      for (const signal of signals) process.off(signal, onSignal);
    },
  };
}
