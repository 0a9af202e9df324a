import { useInput } from "ink";
import { useRef } from "react";

import type { PaymentSession } from "./use-payment-session.js";
import type { HistoryView } from "./use-history.js";
import type { PendingApprovals } from "./use-pending-approvals.js";

/**
 * The TUI's keys (keyboard only): `p` or Enter pays the quoted offer, `r` asks for a fresh quote, `y`/`n`
 * answer the inline approval prompt, arrows (or `j`/`k`) select another agent's pending approval and `a`/`d`
 * approve or deny it, `h` opens or closes the payment history, `q` or Escape quits. While the inline prompt is open only `y` and `n` act (`q` and
 * Escape deny), so a stray key cannot approve anything; while a payment is on its way `q` is ignored,
 * because leaving then would turn a payment that is about to settle into one of unknown outcome.
 */
export function useKeymap(session: PaymentSession, approvals: PendingApprovals, quit: () => void, history?: HistoryView): void {
  // Ink re-subscribes the handler in an effect, after the frame is already on screen; reading the latest
  // render's values through a ref keeps a key pressed in between from acting on the previous screen.
  const latest = useRef({ session, approvals, quit, history });
  latest.current = { session, approvals, quit, history };
  useInput((input, key) => {
    const now = latest.current;
    const { state } = now.session;
    const quitKey = input === "q" || key.escape;
    if (state.stage === "paying" && state.approval !== undefined) {
      if (input === "y") now.session.answerApproval(true);
      if (input === "n" || quitKey) now.session.answerApproval(false);
      return;
    }
    if (quitKey && state.stage !== "paying") {
      now.quit();
      return;
    }
    if ((input === "p" || key.return) && state.stage !== "paying") now.session.pay();
    else if (input === "r" && state.stage !== "paying") now.session.requote();
    else if (input === "h") now.history?.toggle();
    else if (key.upArrow || input === "k") now.approvals.move(-1);
    else if (key.downArrow || input === "j") now.approvals.move(1);
    else if (input === "a") now.approvals.decideSelected("approved");
    else if (input === "d") now.approvals.decideSelected("denied");
  });
}
