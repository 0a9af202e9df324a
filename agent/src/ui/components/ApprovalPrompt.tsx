import { Box, Text } from "ink";

import type { ApprovalRequest } from "../../approvals/approvalFiles.js";
import { remainingUnder } from "../../ledger/remainingUnder.js";
import type { AmountFormat } from "../../payment/amountFormat.js";
import { useColor } from "../hooks/use-colors.js";
import { formatCountdown } from "./formatCountdown.js";

/** Props of `ApprovalPrompt`. */
export type ApprovalPromptProps = {
  request: ApprovalRequest;
  format: AmountFormat;
  /** Counted spend on the request's network and token, this reservation included. */
  spent: string;
  maxTotal: string | undefined;
  now: number;
};

/**
 * The inline approval prompt: on its own it tells a human what they are paying, to whom, why they are asked,
 * what the total cap leaves afterwards, and how long they have (never past the offer's last usable moment).
 */
export function ApprovalPrompt({ request, format, spent, maxTotal, now }: ApprovalPromptProps) {
  const color = useColor();
  const url = new URL(request.url);
  return (
    <Box flexDirection="column" borderStyle="double" borderColor={color("yellow")} paddingX={1}>
      <Text bold color={color("yellow")}>
        Approve payment {request.id}?
      </Text>
      <Text>
        pay      {format(request.amount)} to {url.host} ({url.pathname}) by {request.mode}
      </Text>
      <Text>why      above SVC_APPROVE_ABOVE ({format(request.threshold)})</Text>
      <Text>
        cap      {maxTotal === undefined ? `no SVC_MAX_TOTAL; ${format(spent)} spent with this payment` : `${format(remainingUnder(maxTotal, spent))} remaining of ${format(maxTotal)} after this payment`}
      </Text>
      <Text>
        token    {request.asset} · {request.network}
      </Text>
      <Text>
        deadline declined automatically in {formatCountdown(request.decideBy, now)}
        {request.decideByReason === "offer_expiry" ? " (the offer's last usable moment)" : ""}
      </Text>
      <Text bold>[y] approve · [n] deny · [q] quit without deciding</Text>
    </Box>
  );
}
