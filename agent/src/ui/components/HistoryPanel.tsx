import type { HistoryPaymentView } from "@svc/scheme";
import { Box, Text } from "ink";

import type { AmountFormat } from "../../payment/amountFormat.js";
import { useColor } from "../hooks/use-colors.js";

/** Payments shown at once (two lines each at most); the rest scroll with the arrows, so the pane never outgrows a small terminal. */
export const HISTORY_ROWS = 6;

/** Props of `HistoryPanel`. */
export type HistoryPanelProps = {
  payments: HistoryPaymentView[] | undefined;
  loading: boolean;
  error: string | undefined;
  /** Index of the first payment shown. */
  offset: number;
  /** The agent's own id of each payment it made, by lower-case challenge nonce. */
  localIds: ReadonlyMap<string, string>;
  format: (asset: string) => AmountFormat;
  rows?: number | undefined;
};

/**
 * The payer's payments as the facilitator recorded them, a bounded window of them: the agent's payment id
 * (the one `pay` printed and `proof` takes), state, amount in token units, path and time; a payment made
 * from another state folder shows `-` and, below, the facilitator's full payment id, which `proof` takes too.
 */
export function HistoryPanel({ payments, loading, error, offset, localIds, format, rows = HISTORY_ROWS }: HistoryPanelProps) {
  const color = useColor();
  const all = payments ?? [];
  const shown = all.slice(offset, offset + rows);
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>
        Payment history (facilitator){loading ? " · loading …" : ""}
        {all.length > rows ? ` · ${offset + 1}-${offset + shown.length} of ${all.length} · ↑/↓ scroll` : ""}
      </Text>
      {error === undefined ? null : <Text color={color("red")}>history unavailable: {error}</Text>}
      {payments !== undefined && payments.length === 0 ? <Text color={color("gray")}>no payments recorded for this payer</Text> : null}
      {shown.map((payment) => {
        const localId = localIds.get(payment.paymentId.toLowerCase());
        return (
          <Box key={payment.paymentId} flexDirection="column">
            <Text>
              {(localId ?? "-").padEnd(12)}  {payment.state.padEnd(9)}  {format(payment.asset)(payment.amount)}  {payment.path}  {new Date((payment.finalizedAt ?? payment.acceptedAt ?? payment.intentAt) * 1000).toISOString().slice(0, 19)}Z
            </Text>
            {localId === undefined ? <Text color={color("gray")}>{"  "}id {payment.paymentId}</Text> : null}
          </Box>
        );
      })}
    </Box>
  );
}
