import { Box, Text } from "ink";

import type { ApprovalRequest } from "../../approvals/approvalFiles.js";
import { formatCountdown } from "./formatCountdown.js";

/** Props of `PendingApprovalsPanel`. */
export type PendingApprovalsPanelProps = {
  pending: readonly ApprovalRequest[];
  selected: number;
  now: number;
  notice?: string | undefined;
  error?: string | undefined;
};

/** Approvals headless agents are waiting on, the selected one marked, answerable with `a` and `d`. */
export function PendingApprovalsPanel({ pending, selected, now, notice, error }: PendingApprovalsPanelProps) {
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Pending approvals from other agents ({pending.length})</Text>
      {pending.length === 0 ? <Text color="gray">none</Text> : null}
      {pending.map((request, index) => (
        <Text key={request.id} inverse={index === selected}>
          {index === selected ? "›" : " "} {request.id} · {request.amount} base units (above {request.threshold}) · {request.network} {request.asset} · {request.mode} · {request.url} · {formatCountdown(request.decideBy, now)} left
        </Text>
      ))}
      {notice === undefined ? null : <Text color="cyan">{notice}</Text>}
      {error === undefined ? null : <Text color="red">approvals unreadable: {error}</Text>}
    </Box>
  );
}
