/**
 * `make stack` with a port taken, as a user meets it: the built command as a real process, a real server on the
 * port. It must stop before starting anything, so each run takes about as long as loading the modules.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { occupyPort } from "../http/testing/occupyPort.js";

const STACK_BIN = fileURLToPath(new URL("../../dist/bin/stack.js", import.meta.url));
const PORT_VARIABLES = ["STACK_ANVIL_PORT", "STACK_INDEXER_PORT", "STACK_DECIDER_PORT", "STACK_FACILITATOR_PORT"] as const;
/** The command must give up long before this; the deadline only keeps a regression from hanging the suite. */
const DEADLINE_MS = 20_000;

type Run = { code: number | null; stdout: string; stderr: string };

/** Runs the built `make stack` with `env` on top of ours until it exits or the deadline kills it. */
function runStack(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [STACK_BIN], { env: { ...process.env, ...env }, timeout: DEADLINE_MS, killSignal: "SIGKILL" }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr });
    });
  });
}

describe.concurrent("make stack with a port taken", () => {
  it.for([
    ["STACK_ANVIL_PORT", "anvil"],
    ["STACK_INDEXER_PORT", "fixture indexer"],
    ["STACK_DECIDER_PORT", "fixture decider"],
    ["STACK_FACILITATOR_PORT", "facilitator"],
  ])("%s: names the port and the variable, exits 2, starts and writes nothing", async ([variable, service], { expect }) => {
    const held = await occupyPort();
    const dir = await mkdtemp(join(tmpdir(), "stack-port-taken-"));
    try {
      // Every other port is 0 (any free one, never checked), so only the taken one can stop the start.
      const ports = Object.fromEntries(PORT_VARIABLES.map((name) => [name, name === variable ? String(held.port) : "0"]));
      const run = await runStack({ ...ports, STACK_DIR: dir });

      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(
        new RegExp(`^port ${held.port} \\(${service}\\) is in use: set ${variable} to a free port, e\\.g\\. ${variable}=\\d+ make stack\\n$`),
      );
      expect(run.stderr).not.toMatch(/^\s+at /m);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await held.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
