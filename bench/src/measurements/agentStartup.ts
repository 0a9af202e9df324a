/**
 * Section 5, the agent's share: both CLIs' `--help` against `node -e 0` (`cliHelpColdStart.ts`), cold start of the built CLI (`node agent/dist/cli.js quote <url> --json`
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
import { measureCliHelpColdStart, type CliHelpColdStartResult } from "./cliHelpColdStart.js";
import { timeProcess } from "../harness/timeProcess.js";
import { summarize, type Summary } from "../harness/stats.js";

/** What the agent measurement found; a figure is absent (with a reason) when it could not be measured. */
export type AgentStartupResult = {
  /** `node -e 0`, spawn to exit, ms (interleaved with the help runs). */
  nodeBaselineMs: Summary;
  /** Both CLIs' `--help` against that baseline. */
  help: CliHelpColdStartResult;
  /** `quote --json`, spawn to exit, ms. */
  quoteColdStartMs?: Summary;
  /** `tui`, spawn to first frame (the startup frame drawn before Ink loads), ms. */
  tuiFirstFrameMs?: Summary;
  /** `tui`, spawn to Ink's full screen (title line with `? help`), ms. */
  tuiFullScreenMs?: Summary;
  skipped: string[];
  failures: string[];
};

/** Help is cheap (a tenth of a second); more rounds than the other runs steady its ratio. */
export const HELP_ROUNDS_PER_RUN = 3;

/** Strips ANSI escape sequences. */
function visibleText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, "")
    .replace(/\u001b[@-_]/g, "")
    .trim();
}

/** The full screen's title line ends with this (whitespace removed); the startup frame drawn before Ink has no such text. */
const FULL_SCREEN_MARKER = "?help";

/**
 * Spawns the TUI in a pty and resolves with the ms until its first frame (any visible text: the startup frame
 * drawn before Ink loads) and until Ink's full screen, then quits it.
 */
function timeFirstFrame(env: NodeJS.ProcessEnv, timeoutMs = 20_000): Promise<{ firstMs?: number; fullMs?: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const inner = `stty cols 120 rows 40; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(AGENT_CLI)} tui`;
    const child = spawn("script", ["-qfec", inner, "/dev/null"], { env, stdio: ["pipe", "pipe", "pipe"] });
    let seen = "";
    const frames: { firstMs?: number; fullMs?: number } = {};
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      if (frames.fullMs !== undefined) return;
      seen += chunk.toString("utf8");
      const visible = visibleText(seen).replace(/\s/g, "");
      if (frames.firstMs === undefined && visible.length >= 10) frames.firstMs = performance.now() - started;
      if (visible.includes(FULL_SCREEN_MARKER)) {
        frames.fullMs = performance.now() - started;
        child.kill("SIGTERM");
      }
    });
    child.once("error", reject);
    child.once("close", () => {
      clearTimeout(timer);
      resolve(frames);
    });
  });
}

/** The TUI's first-frame target (spawn to first frame, median), ms. */
export const TUI_FIRST_FRAME_TARGET_MS = 400;

/** The payer's environment for the cold-start runs: a scratch state folder and the stack's chain and token. */
export async function agentEnvironment(parameters: { dir: string; rpcUrl: string; token: string }): Promise<NodeJS.ProcessEnv> {
  const stateDir = join(parameters.dir, "agent-state");
  await mkdir(stateDir, { recursive: true });
  return {
    PATH: process.env.PATH,
    HOME: parameters.dir,
    TERM: "xterm-256color",
    SVC_STATE_DIR: stateDir,
    SVC_RPC_URL: parameters.rpcUrl,
    SVC_ALLOWED_TOKEN: parameters.token,
  };
}

/** Times `runs` TUI starts to the first frame and to the full screen; a run missing either within 20 s is a failure. Skipped without `script`. */
export async function measureTuiFirstFrame(parameters: {
  runs: number;
  env: NodeJS.ProcessEnv;
}): Promise<{ ms?: Summary; fullMs?: Summary; skipped: string[]; failures: string[] }> {
  const { runs, env } = parameters;
  if (!existsSync(AGENT_CLI)) return { skipped: [`agent CLI not built (${AGENT_CLI} missing)`], failures: [] };
  const script = await timeProcess("script", ["-qec", "true", "/dev/null"], env).catch(() => undefined);
  if (script?.code !== 0) return { skipped: ["TUI first render: util-linux `script` (for a pseudo-terminal) is not available"], failures: [] };
  const first: number[] = [];
  const full: number[] = [];
  const failures: string[] = [];
  for (let run = 0; run < runs; run++) {
    const frames = await timeFirstFrame(env);
    if (frames.firstMs === undefined) failures.push("tui printed no frame within 20 s");
    else first.push(frames.firstMs);
    if (frames.fullMs === undefined) failures.push("tui drew no full screen within 20 s");
    else full.push(frames.fullMs);
  }
  return { ...(first.length > 0 ? { ms: summarize(first) } : {}), ...(full.length > 0 ? { fullMs: summarize(full) } : {}), skipped: [], failures };
}

/** Runs the agent startup measurement: both CLIs' help, the quote cold start and the TUI's first frame. */
export async function measureAgentStartup(context: BenchContext): Promise<AgentStartupResult> {
  const { ours, config, stack, progress } = context;
  const env = await agentEnvironment({ dir: context.dir, rpcUrl: stack.deployment.rpcUrl, token: stack.deployment.token });

  progress("footprint: node baseline and both CLIs' --help");
  const help = await measureCliHelpColdStart({ rounds: config.agentRuns * HELP_ROUNDS_PER_RUN, env });
  const result: AgentStartupResult = { nodeBaselineMs: help.nodeBaselineMs, help, skipped: [...help.skipped], failures: [...help.failures] };
  if (!existsSync(AGENT_CLI)) return result;

  progress("footprint: agent cold start");
  const quote: number[] = [];
  for (let run = 0; run < config.agentRuns; run++) {
    await ours.waitForFullStock();
    const { ms, code, output } = await timeProcess(process.execPath, [AGENT_CLI, "quote", `${ours.provider.url}/weather`, "--json"], env);
    if (code === 0) quote.push(ms);
    else result.failures.push(`quote exited ${code}: ${output.trim().split("\n").slice(-2).join(" | ")}`);
  }
  if (quote.length > 0) result.quoteColdStartMs = summarize(quote);

  progress("footprint: TUI first render");
  const tui = await measureTuiFirstFrame({ runs: config.agentRuns, env });
  result.skipped.push(...tui.skipped);
  result.failures.push(...tui.failures);
  if (tui.ms !== undefined) result.tuiFirstFrameMs = tui.ms;
  if (tui.fullMs !== undefined) result.tuiFullScreenMs = tui.fullMs;
  return result;
}
