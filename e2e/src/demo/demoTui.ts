#!/usr/bin/env node
/**
 * `make demo-tui`: the same local services as `make demo`, then the agent's Ink TUI on this terminal, aimed
 * at `GET /weather`, for a human to approve and watch a payment. Quitting the TUI stops everything.
 */
import { spawn } from "node:child_process";
import { AGENT_CLI } from "../harness/runAgent.js";
import { startDemoServices } from "./startDemoServices.js";

const say = (line: string) => process.stdout.write(`${line}\n`);
const services = await startDemoServices(say);
try {
  const tui = spawn(process.execPath, [AGENT_CLI, "tui", `${services.provider.url}/weather`], {
    stdio: "inherit",
    // Approval above 0 base units: every payment asks the human first.
    env: { ...process.env, ...services.agentEnv, SVC_APPROVE_ABOVE: "0" },
  });
  process.exitCode = await new Promise<number>((resolve) => tui.once("exit", (code) => resolve(code ?? 0)));
} finally {
  await services.stop();
}
