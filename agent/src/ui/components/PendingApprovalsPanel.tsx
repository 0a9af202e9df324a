import { Box, Text } from "ink";

import type { ApprovalRequest } from "../../approvals/approvalFiles.js";
import type { AmountFormat } from "../../payment/amountFormat.js";
import { useColor } from "../hooks/use-colors.js";
import { formatCountdown } from "./formatCountdown.js";

/** Props of `PendingApprovalsPanel`. */
export type PendingApprovalsPanelProps = {
  pending: readonly ApprovalRequest[];
  selected: number;
  now: number;
  format: (asset: string) => AmountFormat;
  /** The newest request that arrived while the TUI runs: announced at the top. */
  arrived?: ApprovalRequest | undefined;
  notice?: string | undefined;
  error?: string | undefined;
};

/**
 * Approvals headless agents are waiting on, pinned near the top of the screen whenever there is one, the
 * newest arrival announced, the selected one marked, answerable with `a` (after a confirmation) and `d`.
 * With none waiting it is a single line.
 */
export function PendingApprovalsPanel({ pending, selected, now, format, arrived, notice, error }: PendingApprovalsPanelProps) {
  const color = useColor();
  if (pending.length === 0) {
    return (
      <Box flexDirection="column">
        <Text color={color("gray")}>Pending approvals from other agents: none</Text>
        {notice === undefined ? null : <Text color={color("cyan")}>{notice}</Text>}
        {error === undefined ? null : <Text color={color("red")}>approvals unreadable: {error}</Text>}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={color("yellow")} paddingX={1}>
      <Text bold>Pending approvals from other agents ({pending.length}) · a approve · d deny</Text>
      {arrived === undefined ? null : (
        <Text bold color={color("yellow")}>
          NEW: payment {arrived.id} from process {arrived.pid} is waiting for your approval
        </Text>
      )}
      {pending.map((request, index) => (
        <Box key={request.id} flexDirection="column">
          <Text inverse={index === selected}>
            {index === selected ? "›" : " "} {request.id}  {format(request.asset)(request.amount)} to {new URL(request.url).host}  {formatCountdown(request.decideBy, now)} left
          </Text>
          <Text color={color("gray")}>
            {"    "}above {format(request.asset)(request.threshold)} · {request.mode} · {request.network} · {new URL(request.url).pathname}
          </Text>
        </Box>
      ))}
      {notice === undefined ? null : <Text color={color("cyan")}>{notice}</Text>}
      {error === undefined ? null : <Text color={color("red")}>approvals unreadable: {error}</Text>}
    </Box>
  );
}
