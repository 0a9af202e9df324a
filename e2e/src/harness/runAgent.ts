/** Runs the built agent CLI (`agent/dist/cli.js`) once as a child process and collects what it printed. */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "./repoRoot.js";

/** What one agent run printed and how it exited. */
export type AgentRun = { code: number | null; stdout: string; stderr: string };

/** Path of the built agent CLI. */
export const AGENT_CLI = join(REPO_ROOT, "agent", "dist", "cli.js");

/** Runs `node agent/dist/cli.js ...args` with exactly `env` (plus PATH and HOME). */
export function runAgent(args: readonly string[], env: Record<string, string | undefined>, options: { timeoutMs?: number } = {}): Promise<AgentRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [AGENT_CLI, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The last JSON object line of `--json` output. */
export function lastJson(stdout: string): Record<string, unknown> {
  const line = stdout
    .trim()
    .split("\n")
    .filter((candidate) => candidate.startsWith("{"))
    .at(-1);
  if (line === undefined) throw new TypeError(`no JSON line in agent output: ${stdout}`);
  return JSON.parse(line) as Record<string, unknown>;
}
