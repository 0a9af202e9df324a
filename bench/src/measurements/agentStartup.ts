/**
 * Section 5, the agent's share: cold start of the built CLI (`node agent/dist/cli.js quote <url> --json`
 * against our demo provider, from spawn to exit, one fresh process each time) next to a bare `node -e 0`,
 * and the TUI's time to first frame: `node agent/dist/cli.js tui` in a pseudo-terminal (util-linux
 * `script`), from spawn to the first output carrying visible text. Every quote takes one offer from the
 * facilitator, so each run starts with a full burn-address stock (no derivation running beside it).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { BenchContext } from "../harness/benchContext.js";
import { AGENT_CLI } from "../harness/repoPaths.js";
import { summarize, type Summary } from "../harness/stats.js";

/** What the agent measurement found; a figure is absent (with a reason) when it could not be measured. */
export type AgentStartupResult = {
  /** `node -e 0`, spawn to exit, ms. */
  nodeBaselineMs: Summary;
  /** `quote --json`, spawn to exit, ms. */
  quoteColdStartMs?: Summary;
  /** `tui`, spawn to first frame, ms. */
  tuiFirstFrameMs?: Summary;
  skipped: string[];
  failures: string[];
};

/** Runs `command` to completion; resolves with wall ms and exit code. */
function timeProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; code: number | null; output: string }> {
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

/** Strips ANSI escape sequences. */
function visibleText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, "")
    .replace(/\u001b[@-_]/g, "")
    .trim();
}

/** Spawns the TUI in a pty and resolves with the ms until its first frame, then quits it. */
function timeFirstFrame(env: NodeJS.ProcessEnv, timeoutMs = 20_000): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const inner = `stty cols 120 rows 40; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(AGENT_CLI)} tui`;
    const child = spawn("script", ["-qfec", inner, "/dev/null"], { env, stdio: ["pipe", "pipe", "pipe"] });
    let seen = "";
    let firstFrameMs: number | undefined;
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      if (firstFrameMs !== undefined) return;
      seen += chunk.toString("utf8");
      if (visibleText(seen).replace(/\s/g, "").length >= 10) {
        firstFrameMs = performance.now() - started;
        child.kill("SIGTERM");
      }
    });
    child.once("error", reject);
    child.once("close", () => {
      clearTimeout(timer);
      resolve(firstFrameMs);
    });
  });
}

/** Runs the agent startup measurement. */
export async function measureAgentStartup(context: BenchContext): Promise<AgentStartupResult> {
  const { ours, config, stack, progress } = context;
  const skipped: string[] = [];
  const failures: string[] = [];
  const stateDir = join(context.dir, "agent-state");
  await mkdir(stateDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: context.dir,
    TERM: "xterm-256color",
    SVC_STATE_DIR: stateDir,
    SVC_RPC_URL: stack.deployment.rpcUrl,
    SVC_ALLOWED_TOKEN: stack.deployment.token,
  };

  progress("footprint: node baseline and agent cold start");
  const baseline: number[] = [];
  for (let run = 0; run < config.agentRuns; run++) baseline.push((await timeProcess(process.execPath, ["-e", "0"], env)).ms);

  const result: AgentStartupResult = { nodeBaselineMs: summarize(baseline), skipped, failures };
  if (!existsSync(AGENT_CLI)) {
    skipped.push(`agent CLI not built (${AGENT_CLI} missing)`);
    return result;
  }
  const quote: number[] = [];
  for (let run = 0; run < config.agentRuns; run++) {
    await ours.waitForFullStock();
    const { ms, code, output } = await timeProcess(process.execPath, [AGENT_CLI, "quote", `${ours.provider.url}/weather`, "--json"], env);
    if (code === 0) quote.push(ms);
    else failures.push(`quote exited ${code}: ${output.trim().split("\n").slice(-2).join(" | ")}`);
  }
  if (quote.length > 0) result.quoteColdStartMs = summarize(quote);

  progress("footprint: TUI first render");
  const script = await timeProcess("script", ["-qec", "true", "/dev/null"], env).catch(() => undefined);
  if (script?.code !== 0) {
    skipped.push("TUI first render: util-linux `script` (for a pseudo-terminal) is not available");
    return result;
  }
  const frames: number[] = [];
  for (let run = 0; run < config.agentRuns; run++) {
    const ms = await timeFirstFrame(env);
    if (ms === undefined) failures.push("tui printed no frame within 20 s");
    else frames.push(ms);
  }
  if (frames.length > 0) result.tuiFirstFrameMs = summarize(frames);
  return result;
}
