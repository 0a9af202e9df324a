import type { PayOutcome } from "../../payment/payOutcome.js";
import { Box, Text, useStdout } from "ink";

import { BASE_UNITS_FORMAT } from "../../payment/amountFormat.js";
import { ColorsContext, useColor } from "../hooks/use-colors.js";
import { type TuiState, useTui } from "../hooks/use-tui.js";
import type { TuiDependencies } from "../tuiDependencies.js";
import { ApprovalPrompt } from "./ApprovalPrompt.js";
import { ConfirmPrompt } from "./ConfirmPrompt.js";
import { Header } from "./Header.js";
import { HelpOverlay } from "./HelpOverlay.js";
import { HistoryPanel } from "./HistoryPanel.js";
import { KeyHelp } from "./KeyHelp.js";
import { OfferPanel } from "./OfferPanel.js";
import { OutcomePanel } from "./OutcomePanel.js";
import { PendingApprovalsPanel } from "./PendingApprovalsPanel.js";
import { PhaseList } from "./PhaseList.js";
import { PolicyVerdict } from "./PolicyVerdict.js";
import { SpendPanel } from "./SpendPanel.js";
import { limitsStatus } from "../../policy/limitsStatus.js";
import { limitsForToken } from "../../policy/tokenLimits.js";

/** Terminals shorter than this get the compact layout (one-line spend) whenever a second panel competes for room. */
const ROOMY_ROWS = 34;

/** Props of `App`. */
export type AppProps = {
  dependencies: TuiDependencies;
  /** The resource to buy; without it the TUI only supervises other agents' approvals and the spend. */
  url?: URL | undefined;
  /** The command name shown in hints. */
  binaryName: string;
  /** Receives the exit code on quit: the last payment's, as `pay` would exit, 0, or 130 when interrupted. */
  onExit?: ((code: number) => void) | undefined;
  /** False with `NO_COLOR`: nothing is coloured. */
  colors?: boolean | undefined;
  /** Terminal height; read from the terminal when omitted. */
  rows?: number | undefined;
};

/**
 * The whole TUI screen. Decisions come first: a confirmation, the payment's own approval prompt, then other
 * agents' pending approvals; then the help overlay, the history pane, or the purchase (offer, verdict, caps,
 * phases, outcome); the key bar last. Everything is laid out to fit 80x24.
 */
export function App({ dependencies, url, onExit, colors = true, rows }: AppProps) {
  const tui = useTui(dependencies, url, onExit);
  const { stdout } = useStdout();
  const height = rows ?? stdout.rows ?? 24;
  return (
    <ColorsContext.Provider value={colors}>
      <Screen tui={tui} dependencies={dependencies} height={height} />
    </ColorsContext.Provider>
  );
}

function Screen({ tui, dependencies, height }: { tui: TuiState; dependencies: TuiDependencies; height: number }) {
  const color = useColor();
  const { session, approvals, spend, history, payer, formatFor, tokenFor, now } = tui;
  const { state } = session;
  const { policy } = dependencies;
  const offered = state.stage === "quoted" || state.stage === "paying" || state.stage === "done" ? state : undefined;
  const focusAsset = offered?.quote.offer.asset ?? policy.allowedToken ?? spend.summaries[0]?.asset;
  const format = focusAsset === undefined ? BASE_UNITS_FORMAT : formatFor(focusAsset);
  const prompt = state.stage === "paying" ? state.approval : undefined;
  const promptSpent =
    prompt === undefined
      ? "0"
      : (spend.summaries.find((summary) => summary.network === prompt.network && summary.asset.toLowerCase() === prompt.asset.toLowerCase())?.total ?? prompt.amount.toString());
  const compact = height < ROOMY_ROWS && (approvals.pending.length > 0 || state.stage === "paying" || state.stage === "done");
  const localIds = new Map(spend.entries.map((entry) => [entry.challengeNonce.toLowerCase(), entry.id]));
  return (
    <Box flexDirection="column">
      <Header policy={policy} payer={payer} format={format} />
      {tui.confirm === undefined ? null : <ConfirmPrompt confirm={tui.confirm} format={formatFor} />}
      {prompt === undefined ? null : (
        <ApprovalPrompt request={prompt} format={formatFor(prompt.asset)} spent={promptSpent} maxTotal={limitsForToken(policy, tokenFor(prompt.asset)?.decimals)?.maxTotal?.toString()} now={now} />
      )}
      {approvals.pending.length === 0 ? null : (
        <PendingApprovalsPanel pending={approvals.pending} selected={approvals.selected} now={now} format={formatFor} arrived={approvals.arrived} notice={approvals.notice} error={approvals.error} />
      )}
      {tui.helpOpen ? (
        <HelpOverlay />
      ) : history.open ? (
        <HistoryPanel payments={history.payments} loading={history.loading} error={history.error} offset={history.offset} localIds={localIds} format={formatFor} />
      ) : prompt !== undefined ? null : (
        <>
          {state.stage === "idle" ? <Text color={color("gray")}>no resource given: supervising approvals and spend</Text> : null}
          {state.stage === "quoting" ? <Text color={color("cyan")}>requesting {state.url.href} …</Text> : null}
          {state.stage === "quote-failed" ? (
            <Box borderStyle="round" borderColor={color("red")} paddingX={1}>
              <Text color={color("red")}>NO OFFER: {state.message}</Text>
            </Box>
          ) : null}
          {state.stage === "not-required" ? (
            <OutcomePanel outcome={{ kind: "not-required", resource: { status: state.status, contentType: undefined, body: state.body } }} format={format} />
          ) : null}
          {state.stage === "http-error" ? <OutcomePanel outcome={state.outcome} format={format} /> : null}
          {offered === undefined || (compact && state.stage === "done") ? null : (
            <>
              <OfferPanel
                url={offered.quote.url.href}
                offer={offered.quote.offer}
                token={offered.token}
                mode={policy.mode}
                now={now}
                finished={state.stage === "done" ? finishedLabel(state.outcome) : undefined}
              />
              {state.stage === "quoted" ? <PolicyVerdict verdict={offered.verdict} approveAbove={limitsForToken(policy, offered.quote.token?.decimals)?.approveAbove?.toString()} format={format} /> : null}
            </>
          )}
          <SpendPanel
            summaries={spend.summaries}
            policy={policy}
            focus={offered?.quote.requirements}
            format={formatFor}
            tokenFor={tokenFor}
            compact={compact}
            error={spend.error}
            limits={limitsStatus({ entries: spend.entries, policy, decimalsFor: (asset) => tokenFor(asset)?.decimals, now })}
          />
          {state.stage === "paying" || state.stage === "done" ? (
            <PhaseList mode={policy.mode} reached={state.phases} running={state.stage === "paying"} txHash={state.stage === "paying" ? state.txHash : undefined} />
          ) : null}
          {state.stage === "done" ? <OutcomePanel outcome={state.outcome} format={format} /> : null}
          {approvals.pending.length === 0 ? <PendingApprovalsPanel pending={[]} selected={0} now={now} format={formatFor} notice={approvals.notice} error={approvals.error} /> : null}
        </>
      )}
      {tui.notice === undefined ? null : <Text color={color("cyan")}>{tui.notice}</Text>}
      <KeyHelp tui={tui} />
    </Box>
  );
}

/** How a finished payment reads where its offer's countdown was: a used offer has no time left to count. */
function finishedLabel(outcome: PayOutcome): string {
  if (outcome.kind === "paid") return "paid";
  if (outcome.kind === "unknown") return "outcome unknown (s re-sends the same payment)";
  return "not paid (r for a fresh offer)";
}
