/**
 * Section 5's cold-start rows: both CLIs' `--help` against `node -e 0` and the TUI's first frame, as rows of
 * the Targets table (with what was measured) and, when one is missed, a note on where the time goes.
 */
import { formatFigure } from "../harness/formatFigure.js";
import type { Summary } from "../harness/stats.js";
import { TUI_FIRST_FRAME_TARGET_MS, type AgentStartupResult } from "../measurements/agentStartup.js";
import { HELP_COLD_START_TARGET_RATIO } from "../measurements/cliHelpColdStart.js";

type ColdStartVerdict = { target: string; measured: string; met: boolean | undefined };

function median(summary: Summary | undefined): number {
  return summary === undefined || summary.n === 0 ? Number.NaN : summary.median;
}

function helpVerdict(name: "svc-agent" | "svc-facilitator", helpMs: Summary | undefined, baselineMs: Summary): ColdStartVerdict {
  const value = median(helpMs) / median(baselineMs);
  return {
    target: `\`${name} --help\` ≤ ${HELP_COLD_START_TARGET_RATIO}x \`node -e 0\` (spawn to exit, medians)`,
    measured: Number.isFinite(value)
      ? `${value.toFixed(2)}x (${formatFigure(median(helpMs))} ms vs ${formatFigure(median(baselineMs))} ms, ${helpMs?.n ?? 0} interleaved runs)`
      : "not measured",
    met: Number.isFinite(value) ? value <= HELP_COLD_START_TARGET_RATIO : undefined,
  };
}

/** The three rows of the Targets table. */
export function coldStartVerdicts(agent: AgentStartupResult): ColdStartVerdict[] {
  const frame = median(agent.tuiFirstFrameMs);
  return [
    helpVerdict("svc-agent", agent.help.agentHelpMs, agent.help.nodeBaselineMs),
    helpVerdict("svc-facilitator", agent.help.facilitatorHelpMs, agent.help.nodeBaselineMs),
    {
      target: `agent TUI first frame < ${TUI_FIRST_FRAME_TARGET_MS} ms (spawn in a pty to first visible frame, median)`,
      measured: Number.isFinite(frame)
        ? `${formatFigure(frame)} ms (p95 ${formatFigure(agent.tuiFirstFrameMs?.p95 ?? Number.NaN)} ms): the startup frame, drawn before Ink loads; Ink's full screen ${formatFigure(median(agent.tuiFullScreenMs))} ms`
        : "not measured",
      met: Number.isFinite(frame) ? frame < TUI_FIRST_FRAME_TARGET_MS : undefined,
    },
  ];
}

/** Section 5's table rows for the help runs. */
export function coldStartTableRows(agent: AgentStartupResult): [string, string][] {
  const row = (summary: Summary | undefined) => (summary === undefined ? "not measured" : `${formatFigure(summary.median)} / ${formatFigure(summary.p95)}`);
  return [
    ["`svc-agent --help` (spawn to exit), ms", row(agent.help.agentHelpMs)],
    ["`svc-facilitator --help` (spawn to exit), ms", row(agent.help.facilitatorHelpMs)],
    ["agent TUI full screen (`tui` in a pty, spawn to Ink's first frame with the payer's header), ms", row(agent.tuiFullScreenMs)],
  ];
}

/** A note for each missed cold-start row. */
export function coldStartMissedNotes(agent: AgentStartupResult, missedTargets: ReadonlySet<string>): string[] {
  const [agentHelp, facilitatorHelp, tui] = coldStartVerdicts(agent);
  const notes: string[] = [];
  if ((agentHelp && missedTargets.has(agentHelp.target)) || (facilitatorHelp && missedTargets.has(facilitatorHelp.target)))
    notes.push(
      "- **CLI help cold start.** Help loads only each command's light definition module (`<name>Command.ts`; a test proves no viem, pg, Koa, scheme or daemon module loads), so what remains is Node's own start, the ESM loader resolving the command modules, and clipanion itself (about 1.4x `node -e 0` alone on this machine). What would close it: one bundled entry file for the CLI (fewer module resolutions) or a hand-written help fast path ahead of clipanion.",
    );
  if (tui && missedTargets.has(tui.target))
    notes.push(
      "- **TUI first frame.** The first frame waits for ink, React and the payer's configuration to load before anything is drawn. What would close it: draw the header before loading the chain clients, and load the payment code after the first frame.",
    );
  return notes;
}
