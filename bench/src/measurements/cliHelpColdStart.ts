/**
 * Section 5, cold start of both CLIs' help: `node agent/dist/cli.js --help` and `node facilitator/dist/cli.js
 * --help`, spawn to exit, against a bare `node -e 0`. The three commands run interleaved (one of each per
 * round) so a busy machine slows all of them alike and the ratio of medians stays comparable. Help needs no
 * chain, so this part runs without the stack.
 */
import { existsSync } from "node:fs";
import { timeProcess } from "../harness/timeProcess.js";
import { AGENT_CLI, FACILITATOR_CLI } from "../harness/repoPaths.js";
import { summarize, type Summary } from "../harness/stats.js";

/** The target of both rows: help within this multiple of `node -e 0` (medians, same run). */
export const HELP_COLD_START_TARGET_RATIO = 1.5;

/** What the help measurement found; a CLI that is not built is skipped with a reason. */
export type CliHelpColdStartResult = {
  /** `node -e 0`, spawn to exit, ms. */
  nodeBaselineMs: Summary;
  /** `svc-agent --help`, spawn to exit, ms. */
  agentHelpMs?: Summary;
  /** `svc-facilitator --help`, spawn to exit, ms. */
  facilitatorHelpMs?: Summary;
  skipped: string[];
  failures: string[];
};

/** Times `rounds` interleaved rounds of the baseline and each built CLI's `--help`. */
export async function measureCliHelpColdStart(parameters: { rounds: number; env: NodeJS.ProcessEnv }): Promise<CliHelpColdStartResult> {
  const { rounds, env } = parameters;
  const clis = [
    { name: "agent", path: AGENT_CLI, samples: [] as number[] },
    { name: "facilitator", path: FACILITATOR_CLI, samples: [] as number[] },
  ] as const;
  const skipped: string[] = [];
  const failures: string[] = [];
  const built = clis.filter((cli) => {
    if (existsSync(cli.path)) return true;
    skipped.push(`${cli.name} CLI not built (${cli.path} missing)`);
    return false;
  });
  const baseline: number[] = [];
  for (let round = 0; round < rounds; round++) {
    baseline.push((await timeProcess(process.execPath, ["-e", "0"], env)).ms);
    for (const cli of built) {
      const { ms, code, output } = await timeProcess(process.execPath, [cli.path, "--help"], env);
      if (code === 0) cli.samples.push(ms);
      else failures.push(`${cli.name} --help exited ${code}: ${output.trim().split("\n").slice(-1).join("")}`);
    }
  }
  const [agent, facilitator] = clis;
  return {
    nodeBaselineMs: summarize(baseline),
    ...(agent.samples.length > 0 ? { agentHelpMs: summarize(agent.samples) } : {}),
    ...(facilitator.samples.length > 0 ? { facilitatorHelpMs: summarize(facilitator.samples) } : {}),
    skipped,
    failures,
  };
}
