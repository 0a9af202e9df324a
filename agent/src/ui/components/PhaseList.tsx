import { Box, Text } from "ink";

import type { PaymentMode } from "@svc/scheme";

import type { PaymentPhase } from "../../payment/payEvent.js";
import { useColor } from "../hooks/use-colors.js";

const LABELS: Record<PaymentPhase, string> = {
  signing: "signing",
  broadcasting: "broadcasting the burn",
  "waiting-for-receipt": "waiting for the burn's receipt",
  verifying: "provider verifying and settling",
  settled: "settled",
};

/** The phases a payment in `mode` goes through. */
function phasesOf(mode: PaymentMode): PaymentPhase[] {
  return mode === "permit" ? ["signing", "verifying", "settled"] : ["signing", "broadcasting", "waiting-for-receipt", "verifying", "settled"];
}

/** Props of `PhaseList`. */
export type PhaseListProps = {
  mode: PaymentMode;
  /** Phases reached so far, in order. */
  reached: readonly PaymentPhase[];
  /** False once the payment ended: the last reached phase is then shown as where it stopped. */
  running: boolean;
  txHash?: `0x${string}` | undefined;
};

/** The payment's phases as they happen: done, in progress, or still to come. */
export function PhaseList({ mode, reached, running, txHash }: PhaseListProps) {
  const color = useColor();
  const last = reached[reached.length - 1];
  return (
    <Box flexDirection="column" paddingX={1}>
      {phasesOf(mode).map((phase) => {
        const done = reached.includes(phase) && (phase !== last || !running || phase === "settled");
        const active = running && phase === last && phase !== "settled";
        return (
          <Text key={phase} color={color(done ? "green" : active ? "cyan" : "gray")}>
            {done ? "✓" : active ? "…" : "·"} {LABELS[phase]}
            {phase === "broadcasting" && txHash !== undefined && reached.includes(phase) ? ` ${txHash}` : ""}
          </Text>
        );
      })}
    </Box>
  );
}
