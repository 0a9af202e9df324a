import { Text } from "ink";

import type { SessionState } from "../hooks/use-payment-session.js";

/** The keys that act right now, so the screen is usable without reading the README. */
export function KeyHelp({ state, hasPending, history }: { state: SessionState; hasPending: boolean; history?: "open" | "closed" | undefined }) {
  const keys: string[] = [];
  if (state.stage === "paying" && state.approval !== undefined) keys.push("y approve", "n deny");
  else {
    if (state.stage === "quoted" && state.verdict.kind === "allowed") keys.push("p/enter pay");
    if (state.stage !== "idle" && state.stage !== "quoting" && state.stage !== "paying") keys.push("r fresh quote");
    if (hasPending) keys.push("↑/↓ select", "a approve selected", "d deny selected");
    if (history !== undefined) keys.push(history === "open" ? "h hide history" : "h history");
    if (state.stage !== "paying") keys.push("q quit");
  }
  return <Text color="gray">keys: {keys.join(" · ")}</Text>;
}
