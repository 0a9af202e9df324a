import { useInput } from "ink";
import { useRef } from "react";

import type { TuiControls } from "./use-tui.js";

/**
 * The TUI's keys (keyboard only; `?` lists them on screen). Precedence, first match wins: Ctrl-C leaves
 * (withdrawing an open approval, exit 130); the help overlay closes on any key; a confirmation takes only
 * `y` (confirm) and `n`/Escape (back); the inline approval prompt takes `y`, `n`, `q` (asks before quitting
 * without deciding) and `?`, so a stray key cannot approve anything; then `p`/Enter pay, `r` fresh quote, `s`
 * re-send an unknown outcome, `h` history (arrows or `j`/`k` scroll it while open, otherwise select another
 * agent's approval), `a` approve it (after a confirmation), `d` deny it, `q` quit (refused while a payment is
 * on its way, which would turn one about to settle into one of unknown outcome).
 */
export function useKeymap(controls: TuiControls): void {
  // Ink re-subscribes the handler in an effect, after the frame is already on screen; reading the latest
  // render's values through a ref keeps a key pressed in between from acting on the previous screen.
  const latest = useRef(controls);
  latest.current = controls;
  useInput((input, key) => {
    const now = latest.current;
    const { session, approvals, history } = now;
    const { state } = session;
    if (key.ctrl && input === "c") {
      now.interrupt();
      return;
    }
    if (now.helpOpen) {
      now.setHelpOpen(false);
      return;
    }
    if (now.confirm !== undefined) {
      if (input === "y") now.confirmYes();
      else if (input === "n" || key.escape) now.setConfirm(undefined);
      return;
    }
    const prompting = state.stage === "paying" && state.approval !== undefined;
    if (input === "?") {
      now.setHelpOpen(true);
      return;
    }
    if (prompting) {
      if (input === "y") session.answerApproval(true);
      else if (input === "n") session.answerApproval(false);
      else if (input === "q") now.setConfirm({ kind: "quit" });
      return;
    }
    if (input === "q") {
      if (state.stage === "paying") now.setNotice("a payment is on its way: q works once it has ended (Ctrl-C leaves anyway)");
      else now.quit();
      return;
    }
    if (key.escape) {
      if (history.open) history.toggle();
      return;
    }
    if ((input === "p" || key.return) && now.canPay) session.pay();
    else if (input === "r" && now.canRequote) session.requote();
    else if (input === "s" && now.canResend) session.resend();
    else if (input === "h") history.toggle();
    else if (history.open && (key.upArrow || input === "k")) history.scroll(-1);
    else if (history.open && (key.downArrow || input === "j")) history.scroll(1);
    else if (key.upArrow || input === "k") approvals.move(-1);
    else if (key.downArrow || input === "j") approvals.move(1);
    else if (input === "a") {
      const request = approvals.pending[approvals.selected];
      if (request !== undefined) now.setConfirm({ kind: "approve", request });
    } else if (input === "d") approvals.decideSelected("denied");
  });
}
