/** Wall time of one child process, spawn to exit: the cold-start figures of section 5. */
import { spawn } from "node:child_process";

/** Runs `command` to completion; resolves with wall ms, exit code and everything it printed. */
export function timeProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) => resolve({ ms: performance.now() - started, code, output }));
  });
}
