#!/usr/bin/env node
/**
 * `make demo-tui`: the same local services as `make demo`, then the agent's Ink TUI on this terminal, aimed
 * at `GET /weather`, for a human to approve and watch a payment. Before the TUI starts it prints what a second
 * terminal needs to run a headless agent in the same state folder, so cross-process approval can be tried.
 * Quitting the TUI stops everything; a payment the human declined is not a failure of the demo.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";

import { AGENT_CLI } from "../harness/runAgent.js";
import { REPO_ROOT } from "../harness/repoRoot.js";
import { startDemoServices } from "./startDemoServices.js";

const say = (line: string) => process.stdout.write(`${line}\n`);
const services = await startDemoServices(say);
const weather = `${services.provider.url}/weather`;
const shared = Object.entries({ ...services.agentEnv, SVC_APPROVE_ABOVE: "0" })
  .map(([name, value]) => `${name}=${value}`)
  .join(" ");
say("");
say("To have a headless agent ask this TUI for approval, run in a second terminal (a local dev key, never a real one):");
say(`  ${shared} ${join(REPO_ROOT, "bin", "svc-agent")} pay ${weather}`);
say(`state folder: ${services.agentEnv.SVC_STATE_DIR ?? ""}`);
say("");
try {
  const tui = spawn(process.execPath, [AGENT_CLI, "tui", weather], {
    stdio: "inherit",
    // Approval above 0 base units: every payment asks the human first.
    env: { ...process.env, ...services.agentEnv, SVC_APPROVE_ABOVE: "0" },
  });
  const code = await new Promise<number>((resolve) => tui.once("exit", (exitCode) => resolve(exitCode ?? 0)));
  // The TUI exits like `pay` (4 after a denial, 130 on Ctrl-C); for the demo only a crash is an error.
  if (code !== 0) say(`the TUI exited with ${code} (see agent/README.md, "Exit codes")`);
  process.exitCode = code === 0 || code === 3 || code === 4 || code === 5 || code === 6 || code === 130 ? 0 : code;
} finally {
  await services.stop();
}
