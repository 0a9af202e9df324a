import { Text } from "ink";

import type { QuoteVerdict } from "../../payment/quoteVerdict.js";

/** The policy's verdict on the quote: allowed, allowed with approval, or declined with its reason. */
export function PolicyVerdict({ verdict, approveAbove }: { verdict: QuoteVerdict; approveAbove: string | undefined }) {
  if (verdict.kind === "declined") {
    return (
      <Text color="red">
        DECLINED by policy ({verdict.reason}): {verdict.message}
      </Text>
    );
  }
  return verdict.needsApproval ? (
    <Text color="yellow">policy: allowed, needs your approval (above SVC_APPROVE_ABOVE {approveAbove ?? ""})</Text>
  ) : (
    <Text color="green">policy: allowed</Text>
  );
}
