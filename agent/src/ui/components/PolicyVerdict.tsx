import { Text } from "ink";

import type { AmountFormat } from "../../payment/amountFormat.js";
import type { QuoteVerdict } from "../../payment/quoteVerdict.js";
import { useColor } from "../hooks/use-colors.js";

/** The policy's verdict on the quote: allowed, allowed with approval, or declined with its reason. */
export function PolicyVerdict({ verdict, approveAbove, format }: { verdict: QuoteVerdict; approveAbove: string | undefined; format: AmountFormat }) {
  const color = useColor();
  if (verdict.kind === "declined") {
    return (
      <Text color={color("red")}>
        DECLINED by policy ({verdict.reason}): {verdict.message}
      </Text>
    );
  }
  return verdict.needsApproval ? (
    <Text color={color("yellow")}>policy: allowed, needs your approval (above SVC_APPROVE_ABOVE {format(approveAbove ?? "0")})</Text>
  ) : (
    <Text color={color("green")}>policy: allowed</Text>
  );
}
