import { Box, Text } from "ink";

import { useTui } from "../hooks/use-tui.js";
import type { TuiDependencies } from "../tuiDependencies.js";
import { ApprovalPrompt } from "./ApprovalPrompt.js";
import { HistoryPanel } from "./HistoryPanel.js";
import { KeyHelp } from "./KeyHelp.js";
import { OfferPanel } from "./OfferPanel.js";
import { OutcomePanel } from "./OutcomePanel.js";
import { PendingApprovalsPanel } from "./PendingApprovalsPanel.js";
import { PhaseList } from "./PhaseList.js";
import { PolicyVerdict } from "./PolicyVerdict.js";
import { SpendPanel } from "./SpendPanel.js";

/** Props of `App`. */
export type AppProps = {
  dependencies: TuiDependencies;
  /** The resource to buy; without it the TUI only supervises other agents' approvals and the spend. */
  url?: URL | undefined;
  binaryName: string;
  /** Receives the exit code on quit: the last payment's, as `pay` would exit, or 0. */
  onExit?: ((code: number) => void) | undefined;
};

/** The whole TUI screen: offer, policy verdict, caps and spend, approval prompt, phases, outcome, other agents' approvals. */
export function App({ dependencies, url, binaryName, onExit }: AppProps) {
  const { session, approvals, spend, history, now } = useTui(dependencies, url, onExit);
  const { state } = session;
  const { policy } = dependencies;
  const offered = state.stage === "quoted" || state.stage === "paying" || state.stage === "done" ? state : undefined;
  return (
    <Box flexDirection="column">
      <Text bold>
        svc-zerc20 payer · mode {policy.mode} · network {policy.allowedNetwork}
      </Text>
      {state.stage === "idle" ? <Text color="gray">no resource given: supervising approvals and spend</Text> : null}
      {state.stage === "quoting" ? <Text color="cyan">requesting {state.url.href} …</Text> : null}
      {state.stage === "quote-failed" ? (
        <Box borderStyle="round" borderColor="red" paddingX={1}>
          <Text color="red">NO OFFER: {state.message}</Text>
        </Box>
      ) : null}
      {state.stage === "not-required" ? (
        <OutcomePanel outcome={{ kind: "not-required", resource: { status: state.status, contentType: undefined, body: state.body } }} binaryName={binaryName} />
      ) : null}
      {state.stage === "http-error" ? <OutcomePanel outcome={state.outcome} binaryName={binaryName} /> : null}
      {offered === undefined ? null : (
        <>
          <OfferPanel url={offered.quote.url.href} offer={offered.quote.offer} token={offered.token} mode={policy.mode} now={now} />
          {state.stage === "quoted" ? <PolicyVerdict verdict={offered.verdict} approveAbove={policy.approveAbove} /> : null}
        </>
      )}
      <SpendPanel summaries={spend.summaries} policy={policy} focus={offered?.quote.offer} error={spend.error} />
      {state.stage === "paying" && state.approval !== undefined ? <ApprovalPrompt request={state.approval} token={state.token} now={now} /> : null}
      {(state.stage === "paying" && state.approval === undefined) || state.stage === "done" ? (
        <PhaseList mode={policy.mode} reached={state.phases} running={state.stage === "paying"} txHash={state.stage === "paying" ? state.txHash : undefined} />
      ) : null}
      {state.stage === "done" ? <OutcomePanel outcome={state.outcome} binaryName={binaryName} /> : null}
      <PendingApprovalsPanel pending={approvals.pending} selected={approvals.selected} now={now} notice={approvals.notice} error={approvals.error} />
      {history.open ? <HistoryPanel payments={history.payments} loading={history.loading} error={history.error} /> : null}
      <KeyHelp state={state} hasPending={approvals.pending.length > 0} history={history.available ? (history.open ? "open" : "closed") : undefined} />
    </Box>
  );
}
