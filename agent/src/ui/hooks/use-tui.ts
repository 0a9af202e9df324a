import { useApp } from "ink";
import { useCallback, useEffect } from "react";

import { EXIT_OK, exitCodeFor } from "../../commands/exitCodes.js";
import type { TuiDependencies } from "../tuiDependencies.js";
import { type HistoryView, useHistory } from "./use-history.js";
import { useClock } from "./use-clock.js";
import { useKeymap } from "./use-keymap.js";
import { type PaymentSession, usePaymentSession } from "./use-payment-session.js";
import { type PendingApprovals, usePendingApprovals } from "./use-pending-approvals.js";
import { useSpend } from "./use-spend.js";

/** Everything the TUI screen shows, gathered from the individual hooks. */
export type TuiState = {
  session: PaymentSession;
  approvals: PendingApprovals;
  spend: ReturnType<typeof useSpend>;
  history: HistoryView;
  /** The ticking clock for countdowns, milliseconds. */
  now: number;
};

/**
 * Wires the TUI's hooks together: the purchase session, other agents' pending approvals, the ledger's spend
 * (re-read when a payment ends) and the keymap. `onExit` receives the exit code on quit: the last payment's as `pay` would exit, or 0.
 */
export function useTui(dependencies: TuiDependencies, url: URL | undefined, onExit?: (code: number) => void): TuiState {
  const { exit } = useApp();
  const session = usePaymentSession(dependencies, url);
  const approvals = usePendingApprovals(dependencies);
  const spend = useSpend(dependencies);
  const history = useHistory(dependencies.history);
  const now = useClock(dependencies.now);
  const { refresh } = spend;
  useEffect(() => {
    refresh();
  }, [session.lastOutcome, session.state.stage, refresh]);
  const { lastOutcome } = session;
  const quit = useCallback(() => {
    onExit?.(lastOutcome === undefined ? EXIT_OK : exitCodeFor(lastOutcome));
    exit();
  }, [exit, lastOutcome, onExit]);
  useKeymap(session, approvals, quit, history);
  return { session, approvals, spend, history, now };
}
