import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

import type { ApprovalRequest } from "../approvals/approvalFiles.js";
import { BINARY_NAME } from "../commands/binaryName.js";
import type { AmountFormat } from "../payment/amountFormat.js";

/** How often a waiting tool call tells its client it is still waiting for a human. */
export const APPROVAL_PROGRESS_MS = 1_000;

/**
 * While a payment waits for a human, sends MCP progress notifications (when the client gave a progress
 * token): the seconds waited so far out of the time the human has, and what a human must run. Stops on `stop`.
 */
export function approvalProgress(
  request: ApprovalRequest,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  format: AmountFormat,
): { stop: () => void } {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return { stop: () => undefined };
  const started = Date.now();
  const total = Math.max(1, Math.ceil((request.decideBy - started) / 1000));
  const send = () => {
    const waited = Math.floor((Date.now() - started) / 1000);
    void extra
      .sendNotification({
        method: "notifications/progress",
        params: {
          progressToken,
          progress: Math.min(waited, total),
          total,
          message: `payment ${request.id} (${format(request.amount)}) waits for a human: \`${BINARY_NAME} approvals approve ${request.id}\` or \`${BINARY_NAME} tui\``,
        },
      })
      .catch(() => undefined);
  };
  send();
  const timer = setInterval(send, APPROVAL_PROGRESS_MS);
  return { stop: () => clearInterval(timer) };
}
