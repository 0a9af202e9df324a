/**
 * `node bench/dist/runColdStart.js`: section 5's cold-start rows on their own (under a minute after the
 * stack is up): both CLIs' `--help` against `node -e 0`, interleaved, and the TUI's first frame in a pty.
 * Prints each figure with its target and verdict to stdout, the raw figures as one JSON line to stderr; it
 * writes no results file. `BENCH_AGENT_RUNS` sets the TUI runs (help makes three rounds per run).
 */
import { coldStartVerdicts } from "./coldStart/renderColdStartRows.js";
import { loadBenchConfig } from "./harness/benchConfig.js";
import { runSection } from "./harness/runSection.js";
import { agentEnvironment, type AgentStartupResult, HELP_ROUNDS_PER_RUN, measureTuiFirstFrame } from "./measurements/agentStartup.js";
import { measureCliHelpColdStart } from "./measurements/cliHelpColdStart.js";

runSection("cold-start", async ({ dir, stack, progress }) => {
  const config = loadBenchConfig(process.env);
  const env = await agentEnvironment({ dir, rpcUrl: stack.deployment.rpcUrl, token: stack.deployment.token });
  progress("node -e 0 and both CLIs' --help, interleaved");
  const help = await measureCliHelpColdStart({ rounds: config.agentRuns * HELP_ROUNDS_PER_RUN, env });
  progress("TUI first frames");
  const tui = await measureTuiFirstFrame({ runs: config.agentRuns, env });
  const result: AgentStartupResult = {
    nodeBaselineMs: help.nodeBaselineMs,
    help,
    ...(tui.ms === undefined ? {} : { tuiFirstFrameMs: tui.ms }),
    ...(tui.fullMs === undefined ? {} : { tuiFullScreenMs: tui.fullMs }),
    skipped: [...help.skipped, ...tui.skipped],
    failures: [...help.failures, ...tui.failures],
  };
  const verdict = (met: boolean | undefined) => (met === undefined ? "not measured" : met ? "met" : "missed");
  const lines = coldStartVerdicts(result).map((row) => `${row.target}: ${row.measured}: ${verdict(row.met)}`);
  if (result.skipped.length + result.failures.length > 0) lines.push(`notes: ${[...result.skipped, ...result.failures].join("; ")}`);
  process.stdout.write(`${lines.join("\n")}\n`);
  process.stderr.write(`${JSON.stringify(result)}\n`);
});
