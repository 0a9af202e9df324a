import { Box, Text } from "ink";

import type { ApprovalRequest } from "../../approvals/approvalFiles.js";
import { formatAmount, type TokenInfo } from "../../payment/tokenInfo.js";
import { formatCountdown } from "./formatCountdown.js";

/** The inline approval prompt for a quote above `SVC_APPROVE_ABOVE`, with the time left to decide. */
export function ApprovalPrompt({ request, token, now }: { request: ApprovalRequest; token: TokenInfo | undefined; now: number }) {
  return (
    <Box flexDirection="column" borderStyle="double" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        Approve payment {request.id}?
      </Text>
      <Text>
        {formatAmount(request.amount, token)}, above the approval threshold of {request.threshold} base units
      </Text>
      <Text>
        [y] approve · [n] deny · declined automatically in {formatCountdown(request.decideBy, now)}
      </Text>
    </Box>
  );
}
