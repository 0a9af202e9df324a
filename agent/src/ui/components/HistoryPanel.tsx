import type { HistoryPaymentView } from "@svc/scheme";
import { Box, Text } from "ink";

/** Props of `HistoryPanel`. */
export type HistoryPanelProps = {
  payments: HistoryPaymentView[] | undefined;
  loading: boolean;
  error: string | undefined;
};

/** The payer's payments as the facilitator recorded them: id, state, amount (base units), path and time. */
export function HistoryPanel({ payments, loading, error }: HistoryPanelProps) {
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Payment history (facilitator){loading ? " · loading …" : ""}</Text>
      {error === undefined ? null : <Text color="red">history unavailable: {error}</Text>}
      {payments !== undefined && payments.length === 0 ? <Text color="gray">no payments recorded for this payer</Text> : null}
      {(payments ?? []).map((payment) => (
        <Text key={payment.paymentId}>
          {shortId(payment.paymentId)}  {payment.state.padEnd(9)}  {payment.amount} base units  {payment.path}  {new Date((payment.finalizedAt ?? payment.acceptedAt ?? payment.intentAt) * 1000).toISOString()}
        </Text>
      ))}
    </Box>
  );
}

function shortId(paymentId: string): string {
  return paymentId.length > 14 ? `${paymentId.slice(0, 8)}…${paymentId.slice(-4)}` : paymentId;
}
