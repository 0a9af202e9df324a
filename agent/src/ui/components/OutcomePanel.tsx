import { Box, Text } from "ink";

import type { AmountFormat } from "../../payment/amountFormat.js";
import type { PayOutcome } from "../../payment/payOutcome.js";
import { useColor } from "../hooks/use-colors.js";

/** How the payment ended: the resource when paid, otherwise a clear error state with the one thing to do next. */
export function OutcomePanel({ outcome, format }: { outcome: PayOutcome; format: AmountFormat }) {
  const color = useColor();
  const box = (tone: string) => ({ flexDirection: "column" as const, borderStyle: "round" as const, borderColor: color(tone), paddingX: 1 });
  switch (outcome.kind) {
    case "paid":
      return (
        <Box {...box("green")}>
          <Text bold color={color("green")}>
            PAID {format(outcome.offer.amount)} · payment {outcome.id}
          </Text>
          {outcome.transaction === undefined ? null : <Text>burn {outcome.transaction}</Text>}
          <Text>{outcome.resource.body}</Text>
        </Box>
      );
    case "not-required":
      return (
        <Box {...box("green")}>
          <Text bold color={color("green")}>
            no payment required (HTTP {outcome.resource.status})
          </Text>
          <Text>{outcome.resource.body}</Text>
        </Box>
      );
    case "http-error":
      return (
        <Box {...box("red")}>
          <Text bold color={color("red")}>
            REQUEST FAILED: HTTP {outcome.status}
          </Text>
          <Text>{outcome.message}</Text>
          <Text>press r to ask again</Text>
        </Box>
      );
    case "declined":
      return (
        <Box {...box("red")}>
          <Text color={color("red")}>
            DECLINED by policy ({outcome.reason}): {outcome.message}
          </Text>
        </Box>
      );
    case "approval-denied":
      return (
        <Box {...box("red")}>
          <Text color={color("red")}>
            NOT PAID ({outcome.result === "denied" ? "approval denied" : "approval timed out"}): {outcome.message}
          </Text>
        </Box>
      );
    case "failed":
      return (
        <Box {...box("red")}>
          <Text bold color={color("red")}>
            PAYMENT FAILED{outcome.errorReason === undefined ? "" : `: ${outcome.errorReason}`}
          </Text>
          <Text>{outcome.message}</Text>
          <Text>press r for a fresh offer</Text>
        </Box>
      );
    case "unknown":
      return (
        <Box {...box("yellow")}>
          <Text bold color={color("yellow")}>
            OUTCOME UNKNOWN{outcome.errorReason === undefined ? "" : `: ${outcome.errorReason}`} · payment {outcome.id}
          </Text>
          <Text>{outcome.message}</Text>
          <Text>the spend stays reserved; press s to re-send the same signed payment now (it is never paid twice)</Text>
        </Box>
      );
  }
}
