import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

import { AGENT_CLI } from "./builtAgent.js";

/** A running `node agent/dist/cli.js …` child. */
export type AgentProcess = {
  /** stdout and stderr lines so far. */
  stdout: string[];
  stderr: string[];
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number>;
  /**
   * Resolves with the first stderr line matching `pattern` (an output marker); rejects when the process exits
   * without printing it, or after `timeoutMs` (default 30 s), naming the pattern and the stderr so far, and
   * then kills the process so it does not outlive the failed test.
   */
  waitForStderr: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  /** Sends `signal` (default SIGKILL) to the process. */
  kill: (signal?: NodeJS.Signals) => void;
};

/** Starts the built agent CLI with exactly `env` as its environment. */
export function startAgent(argv: readonly string[], env: Record<string, string>): AgentProcess {
  const child = spawn(process.execPath, [AGENT_CLI, ...argv], { env, stdio: ["ignore", "pipe", "pipe"] });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters: { pattern: RegExp; resolve: (match: RegExpMatchArray) => void; reject: (error: Error) => void }[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => stdout.push(line));
  createInterface({ input: child.stderr }).on("line", (line) => {
    stderr.push(line);
    for (const waiter of [...waiters]) {
      const match = line.match(waiter.pattern);
      if (match !== null) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  });
  let ended = false;
  // `close` rather than `exit`: it fires once stdout and stderr are drained, so no line is missed.
  const exited = new Promise<number>((resolve) => child.once("close", (code) => resolve(code ?? -1)));
  void exited.then((code) => {
    ended = true;
    for (const waiter of waiters.splice(0))
      waiter.reject(new Error(`agent exited with ${code} before printing ${waiter.pattern}; stderr:\n${stderr.join("\n")}`));
  });
  return {
    stdout,
    stderr,
    exited,
    waitForStderr: (pattern, timeoutMs = 30_000) => {
      const seen = stderr.map((line) => line.match(pattern)).find((match) => match !== null);
      if (seen !== undefined && seen !== null) return Promise.resolve(seen);
      if (ended) return Promise.reject(new Error(`agent already exited without printing ${pattern}`));
      return new Promise((resolve, reject) => {
        const waiter = {
          pattern,
          resolve: (match: RegExpMatchArray) => {
            clearTimeout(timer);
            resolve(match);
          },
          reject: (error: Error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          // The test has failed: the process must not outlive it.
          child.kill("SIGKILL");
          reject(new Error(`agent printed no stderr line matching ${pattern} within ${timeoutMs} ms (killed it); stderr so far:\n${stderr.join("\n")}`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    kill: (signal = "SIGKILL") => {
      child.kill(signal);
    },
  };
}

/** Runs the built agent CLI to completion. */
export async function runAgent(argv: readonly string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const agent = startAgent(argv, env);
  const code = await agent.exited;
  return { code, stdout: agent.stdout.join("\n"), stderr: agent.stderr.join("\n") };
}
