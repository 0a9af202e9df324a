/**
 * Runs one of the bundle's programs as a real child process for tests: waits for a readiness line on stdout,
 * keeps every output line, and stops it with a signal (or kills it) on request and when the test process
 * exits, so a failing test never leaves a daemon behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { BaseError } from "../errors.js";

/** What to run and how to know it is ready. */
export type StartProcessOptions = {
  command: string;
  args: readonly string[];
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Resolves readiness from a stdout line; return a value to finish waiting. */
  ready: (line: string) => boolean;
  /** Default 30 s. */
  timeoutMs?: number;
};

/** A running child. */
export type RunningProcess = {
  child: ChildProcess;
  /** Every stdout and stderr line so far. */
  lines: string[];
  /** Resolves with the exit code (or the signal's name) once the process ended. */
  exited: Promise<number | string>;
  /** Sends `signal` (default SIGTERM) and waits for the exit. */
  stop: (signal?: NodeJS.Signals) => Promise<number | string>;
};

/** The child exited or stayed silent before printing its readiness line. */
export class ProcessStartError extends BaseError {
  override name = "ProcessStartError";
  constructor(command: string, reason: string, lines: readonly string[]) {
    super(`${command} did not start: ${reason}`, { metaMessages: lines.slice(-20) });
  }
}

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** Starts the process and resolves once `ready` accepted a stdout line. */
export async function startProcess(options: StartProcessOptions): Promise<RunningProcess> {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  const lines: string[] = [];
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve(code ?? signal ?? "unknown");
    });
  });
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop("SIGKILL");
      reject(new ProcessStartError(options.command, `no readiness line within ${options.timeoutMs ?? 30_000} ms`, lines));
    }, options.timeoutMs ?? 30_000);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
    createInterface({ input: child.stdout! }).on("line", (line) => {
      lines.push(line);
      if (options.ready(line)) finish();
    });
    createInterface({ input: child.stderr! }).on("line", (line) => lines.push(line));
    void exited.then((code) => finish(new ProcessStartError(options.command, `exited with ${code}`, lines)));
  });
  return { child, lines, exited, stop };
}
