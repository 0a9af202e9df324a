import { Box, Text } from "ink";

import type { PayOutcome } from "../../payment/payOutcome.js";

/** How the payment ended: the resource when paid, otherwise a clear error state with what to do next. */
export function OutcomePanel({ outcome, binaryName }: { outcome: PayOutcome; binaryName: string }) {
  switch (outcome.kind) {
    case "paid":
    case "not-required":
      return (
        <Box flexDirection="column" borderStyle="round" borderColor="green" paddingX={1}>
          <Text bold color="green">
            {outcome.kind === "paid" ? `PAID · payment ${outcome.id}` : `no payment required (HTTP ${outcome.resource.status})`}
          </Text>
          {outcome.kind === "paid" && outcome.transaction !== undefined ? <Text>burn {outcome.transaction}</Text> : null}
          <Text>{outcome.resource.body}</Text>
        </Box>
      );
    case "declined":
      return (
        <Box borderStyle="round" borderColor="red" paddingX={1}>
          <Text color="red">
            DECLINED by policy ({outcome.reason}): {outcome.message}
          </Text>
        </Box>
      );
    case "approval-denied":
      return (
        <Box borderStyle="round" borderColor="red" paddingX={1}>
          <Text color="red">
            NOT PAID ({outcome.result === "denied" ? "approval denied" : "approval timed out"}): {outcome.message}
          </Text>
        </Box>
      );
    case "http-error":
      return (
        <Box flexDirection="column" borderStyle="round" borderColor="red" paddingX={1}>
          <Text bold color="red">
            REQUEST FAILED: HTTP {outcome.status}
          </Text>
          <Text>{outcome.message}</Text>
          <Text>press r to ask again</Text>
        </Box>
      );
    case "failed":
      return (
        <Box flexDirection="column" borderStyle="round" borderColor="red" paddingX={1}>
          <Text bold color="red">
            PAYMENT FAILED{outcome.errorReason === undefined ? "" : `: ${outcome.errorReason}`}
          </Text>
          <Text>{outcome.message}</Text>
          <Text>press r for a fresh offer</Text>
        </Box>
      );
    case "unknown":
      return (
        <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
          <Text bold color="yellow">
            OUTCOME UNKNOWN{outcome.errorReason === undefined ? "" : `: ${outcome.errorReason}`} · payment {outcome.id}
          </Text>
          <Text>{outcome.message}</Text>
          <Text>
            the spend stays reserved; re-send the same payment with `{binaryName} resend {outcome.id}` (never pay again)
          </Text>
        </Box>
      );
  }
}
