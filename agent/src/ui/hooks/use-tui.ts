import { useApp } from "ink";
import { useCallback, useEffect, useState } from "react";

import type { ApprovalRequest } from "../../approvals/approvalFiles.js";
import { EXIT_INTERRUPTED, EXIT_OK, exitCodeFor } from "../../commands/exitCodes.js";
import type { AmountFormat } from "../../payment/amountFormat.js";
import { offerUsableUntil } from "../../policy/offerUsableUntil.js";
import type { TuiDependencies } from "../tuiDependencies.js";
import { type HistoryView, useHistory } from "./use-history.js";
import { useClock } from "./use-clock.js";
import { useKeymap } from "./use-keymap.js";
import { type PayerView, usePayer } from "./use-payer.js";
import { type PaymentSession, usePaymentSession } from "./use-payment-session.js";
import { type PendingApprovals, usePendingApprovals } from "./use-pending-approvals.js";
import { useSpend } from "./use-spend.js";
import type { TokenInfo } from "../../payment/tokenInfo.js";
import { useTokenFormats } from "./use-token-formats.js";

/** A question the TUI asks before acting: quitting with an undecided prompt, or approving another agent's payment. */
export type Confirmation = { kind: "quit" } | { kind: "approve"; request: ApprovalRequest };

/** Everything the TUI screen shows, gathered from the individual hooks. */
export type TuiState = {
  session: PaymentSession;
  approvals: PendingApprovals;
  spend: ReturnType<typeof useSpend>;
  history: HistoryView;
  payer: PayerView;
  /** Token-unit amounts per token address. */
  formatFor: (asset: string) => AmountFormat;
  /** A token's symbol and decimals once read: limits written in token units convert with them. */
  tokenFor: (asset: string) => TokenInfo | undefined;
  /** The ticking clock for countdowns, milliseconds. */
  now: number;
  helpOpen: boolean;
  confirm: Confirmation | undefined;
  /** A one-line message about the last key that could not act, or what quitting waits for. */
  notice: string | undefined;
  canPay: boolean;
  canRequote: boolean;
  canResend: boolean;
};

/** The state plus what keys do, as `useKeymap` sees it. */
export type TuiControls = TuiState & {
  setHelpOpen: (open: boolean) => void;
  setConfirm: (confirm: Confirmation | undefined) => void;
  confirmYes: () => void;
  setNotice: (notice: string | undefined) => void;
  quit: () => void;
  interrupt: () => void;
};

/**
 * Wires the TUI's hooks together: the purchase session, other agents' pending approvals, the ledger's spend
 * (re-read when a payment ends), the payer's balance, overlays and the keymap. `onExit` receives the exit
 * code: the last payment's as `pay` would exit, 0 when nothing was paid, 130 on Ctrl-C or when quitting
 * withdrew an undecided approval.
 */
export function useTui(dependencies: TuiDependencies, url: URL | undefined, onExit?: (code: number) => void): TuiState {
  const { exit } = useApp();
  const session = usePaymentSession(dependencies, url);
  const approvals = usePendingApprovals(dependencies);
  const spend = useSpend(dependencies);
  const history = useHistory(dependencies.history);
  const now = useClock(dependencies.now);
  const [helpOpen, setHelpOpen] = useState(false);
  const [confirm, setConfirm] = useState<Confirmation>();
  const [notice, setNotice] = useState<string>();
  const [leaving, setLeaving] = useState(false);
  const { state, lastOutcome } = session;
  const offered = state.stage === "quoted" || state.stage === "paying" || state.stage === "done" ? state : undefined;
  const focusAsset = offered?.quote.offer.asset ?? dependencies.policy.allowedToken ?? spend.summaries[0]?.asset;
  const payer = usePayer(dependencies, focusAsset);
  const { formatFor, tokenFor } = useTokenFormats(dependencies, [
    ...(focusAsset === undefined ? [] : [focusAsset]),
    ...spend.summaries.map((summary) => summary.asset),
    ...approvals.pending.map((request) => request.asset),
    ...(history.payments ?? []).map((payment) => payment.asset),
  ]);
  const { refresh } = spend;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the spend is re-read whenever a payment ends or the stage moves
  useEffect(() => {
    refresh();
  }, [lastOutcome, state.stage, refresh]);

  const leave = useCallback(
    (code: () => number) => {
      setLeaving(true);
      setNotice("leaving once the running payment has ended …");
      // The payment's last ledger write (a release, a settle) must land before the process exits.
      void session.idle().then(() => {
        onExit?.(code());
        exit();
      });
    },
    [exit, onExit, session],
  );
  const quit = useCallback(() => {
    if (!leaving) leave(() => (lastOutcome === undefined ? EXIT_OK : exitCodeFor(lastOutcome)));
  }, [leave, leaving, lastOutcome]);
  const interrupt = useCallback(() => {
    session.withdrawApproval();
    if (!leaving) leave(() => EXIT_INTERRUPTED);
  }, [leave, leaving, session]);
  const confirmYes = useCallback(() => {
    if (confirm?.kind === "quit") interrupt();
    else if (confirm?.kind === "approve") approvals.decide(confirm.request.id, "approved");
    setConfirm(undefined);
  }, [approvals, confirm, interrupt]);

  const usable = offered !== undefined && now <= offerUsableUntil(dependencies.policy.mode, offered.quote.offer.expiresAt);
  const tui: TuiState = {
    session,
    approvals,
    spend,
    history,
    payer,
    formatFor,
    tokenFor,
    now,
    helpOpen,
    confirm,
    notice,
    canPay: state.stage === "quoted" && state.verdict.kind === "allowed" && usable,
    canRequote: url !== undefined && state.stage !== "paying" && state.stage !== "quoting" && !(state.stage === "done" && state.outcome.kind === "unknown"),
    canResend: state.stage === "done" && state.outcome.kind === "unknown" && dependencies.resend !== undefined,
  };
  useKeymap({ ...tui, setHelpOpen, setConfirm, confirmYes, setNotice, quit, interrupt });
  return tui;
}
