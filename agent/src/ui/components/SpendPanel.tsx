import { Box, Text } from "ink";

import type { SpendSummary } from "../../ledger/summarizeSpend.js";
import type { Policy } from "../../policy/policy.js";

/** Props of `SpendPanel`. */
export type SpendPanelProps = {
  summaries: readonly SpendSummary[];
  policy: Pick<Policy, "maxPerPayment" | "maxTotal" | "approveAbove">;
  /** The network and token of the offer on screen, shown first; others follow. */
  focus?: { network: string; asset: string } | undefined;
  error?: string | undefined;
};

/** The caps and the spend so far per network and token, in base units. */
export function SpendPanel({ summaries, policy, focus, error }: SpendPanelProps) {
  const focused = focus === undefined ? undefined : summaries.find((summary) => summary.network === focus.network && summary.asset.toLowerCase() === focus.asset.toLowerCase());
  const rows = focus === undefined ? summaries : focused === undefined ? [] : [focused];
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Caps and spend (base units)</Text>
      <Text>per payment  {policy.maxPerPayment ?? "no cap"}</Text>
      <Text>total        {policy.maxTotal ?? "no cap"} (per network and token)</Text>
      <Text>approval     {policy.approveAbove === undefined ? "off" : `above ${policy.approveAbove}`}</Text>
      {rows.length === 0 ? <Text>spent        0{focus === undefined ? "" : " on this network and token"}</Text> : null}
      {rows.map((summary) => (
        <Box key={`${summary.network}/${summary.asset}`} flexDirection="column">
          <Text>
            spent        {summary.total}
            {policy.maxTotal === undefined ? "" : ` of ${policy.maxTotal}`}
            {focus === undefined ? ` on ${summary.network} ${summary.asset}` : ""}
          </Text>
          <Text color="gray">             settled {summary.settled} · pending {summary.pending} · failed after burn {summary.failed}</Text>
        </Box>
      ))}
      {error === undefined ? null : <Text color="red">ledger unreadable: {error}</Text>}
    </Box>
  );
}
