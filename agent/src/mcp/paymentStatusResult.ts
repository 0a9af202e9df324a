import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

import type { ApprovalRequest } from "../approvals/approvalFiles.js";
import { BINARY_NAME } from "../commands/binaryName.js";
import type { LedgerEntry } from "../ledger/ledgerEntry.js";
import type { AmountFormat } from "../payment/amountFormat.js";
import type { PayOutcome } from "../payment/payOutcome.js";
import { outcomeToolResult } from "./outcomeToolResult.js";
import { requestFailure } from "./requestFailure.js";
import type { SessionPaymentEnd } from "./sessionPayments.js";
import { toolError, toolResult } from "./toolResult.js";

/**
 * Where a payment that needed approval stands, as `payment_status` reports it: `pending` (a human has not
 * decided), `in_progress` (approved, being paid), `paid`, `denied`, `expired` (nobody decided in time), or how
 * an approved payment failed (`declined`, `failed`, `unknown`, `released`).
 */
export type PaymentStatusName = "pending" | "in_progress" | "paid" | "denied" | "expired" | "declined" | "failed" | "unknown" | "released";

/** The longest a `payment_status` call waits, in seconds: well under the 60 s an MCP client waits by default. */
export const PAYMENT_STATUS_MAX_WAIT_S = 25;

/** What `payment_status` waits when the caller does not say. */
export const PAYMENT_STATUS_DEFAULT_WAIT_S = 20;

/** The approval a payment waits for, as data a model can act on; `approvalId` is the payment id. */
function approvalData(request: ApprovalRequest, format: AmountFormat): Record<string, unknown> {
  return {
    approvalId: request.id,
    expiresAt: new Date(request.decideBy).toISOString(),
    amount: format(request.amount),
    amountBaseUnits: request.amount.toString(),
    network: request.network,
    asset: request.asset,
    url: request.url,
    approveCommand: `${BINARY_NAME} approvals approve ${request.id}`,
  };
}

/** `fetch_resource`'s answer when a human must approve: at once, the reservation held until the decision or `expiresAt`. */
export function approvalRequiredResult(request: ApprovalRequest, format: AmountFormat): CallToolResult {
  return toolResult(
    `Payment ${request.id} of ${format(request.amount)} needs a human's approval (in \`${BINARY_NAME} tui\` or with \`${BINARY_NAME} approvals approve ${request.id}\`) by ${new Date(request.decideBy).toISOString()}. Nothing is paid yet; call payment_status with approvalId ${request.id} to wait for the decision and get the resource. Never fetch the URL again meanwhile.`,
    { status: "approval_required", ...approvalData(request, format) },
  );
}

/** `payment_status` while the human has not decided yet. */
export function pendingResult(request: ApprovalRequest, format: AmountFormat): CallToolResult {
  return toolResult(
    `Payment ${request.id} still waits for a human's approval (until ${new Date(request.decideBy).toISOString()}); call payment_status again.`,
    { status: "pending", ...approvalData(request, format) },
  );
}

/** How a payment this session started ended, with the resource when it was paid. */
export function sessionEndResult(end: SessionPaymentEnd): CallToolResult {
  if ("error" in end) return withStatus(requestFailure(end.error), "failed");
  return withStatus(outcomeToolResult(end.outcome, end.format), statusOfOutcome(end.outcome));
}

/**
 * Where a payment stands according to the ledger alone, for a payment another session (or process) started:
 * the same statuses, but the resource itself went to the session that asked for it.
 */
export function ledgerStatusResult(entry: LedgerEntry, pending: ApprovalRequest | undefined, format: AmountFormat): CallToolResult {
  const { id } = entry;
  switch (entry.status) {
    case "reserved":
    case "signed":
      if (pending !== undefined) return pendingResult(pending, format);
      return toolResult(`Payment ${id} is approved and on its way; call payment_status again.`, { status: "in_progress", approvalId: id });
    case "settled":
      return toolResult(`Payment ${id} was approved and paid ${format(entry.amount)}; the resource went to the session that asked for it.`, {
        status: "paid",
        payment: {
          result: "paid",
          id,
          amount: format(entry.amount),
          amountBaseUnits: entry.amount.toString(),
          network: entry.network,
          asset: entry.asset,
          transaction: entry.transaction ?? null,
          phase: "settled",
        },
        resource: null,
      });
    case "unknown":
      return toolError("outcome_unknown", `Payment ${id} may or may not have gone through. Never pay again for it: call resend_payment with id ${id}.`, {
        status: "unknown",
        id,
      });
    case "failed":
      return toolError(entry.errorReason ?? "payment_failed", `The payment failed: ${entry.message ?? "no reason given"}`, { status: "failed", id });
    case "released":
      if (entry.errorReason === "approval_denied")
        return toolError("approval_denied", `A human denied payment ${id}; nothing was paid. Do not retry without asking the user.`, { status: "denied", id });
      if (entry.errorReason === "approval_timed_out")
        return toolError("approval_timed_out", `Nobody approved payment ${id} in time; nothing was paid.`, { status: "expired", id });
      return toolError(entry.errorReason ?? "released", `Payment ${id} was not made: ${entry.message ?? "released"}. Nothing was paid.`, {
        status: "released",
        id,
      });
  }
}

function statusOfOutcome(outcome: PayOutcome): PaymentStatusName {
  switch (outcome.kind) {
    case "paid":
      return "paid";
    case "approval-denied":
      return outcome.result === "denied" ? "denied" : "expired";
    case "declined":
      return "declined";
    case "unknown":
      return "unknown";
    default:
      return "failed";
  }
}

/** The same result with `status` first in its data (and in the JSON line after its sentence). */
function withStatus(result: CallToolResult, status: PaymentStatusName): CallToolResult {
  const data = { status, ...result.structuredContent };
  const first = result.content[0];
  const sentence = first?.type === "text" ? first.text.split("\n")[0] : "";
  return { ...result, content: [{ type: "text", text: `${sentence}\n${JSON.stringify(data)}` }], structuredContent: data };
}
