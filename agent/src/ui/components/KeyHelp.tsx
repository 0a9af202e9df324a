import { Text } from "ink";

import { useColor } from "../hooks/use-colors.js";
import type { TuiState } from "../hooks/use-tui.js";

/** The keys that act right now (the key bar), so the screen is usable without reading the README. */
export function KeyHelp({ tui }: { tui: TuiState }) {
  const color = useColor();
  const { state } = tui.session;
  const keys: string[] = [];
  if (tui.helpOpen) keys.push("any key closes help");
  else if (tui.confirm !== undefined) keys.push("y yes", "n no");
  else if (state.stage === "paying" && state.approval !== undefined) keys.push("y approve", "n deny", "q quit without deciding", "? help");
  else {
    if (tui.canPay) keys.push("p/enter pay");
    if (tui.canResend) keys.push("s re-send");
    if (tui.canRequote) keys.push("r fresh quote");
    if (tui.approvals.pending.length > 0) keys.push("↑/↓ select", "a approve", "d deny");
    if (tui.history.available) keys.push(tui.history.open ? "h hide history" : "h history");
    keys.push("? help");
    if (state.stage !== "paying") keys.push("q quit");
  }
  return <Text color={color("gray")}>keys: {keys.join(" · ")}</Text>;
}
