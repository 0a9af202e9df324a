import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

import type { AmountFormat } from "../payment/amountFormat.js";
import type { PayOutcome } from "../payment/payOutcome.js";
import type { ResourceResponse } from "../payment/resourceResponse.js";
import { toolError, toolResult } from "./toolResult.js";

/** Characters of a resource body a tool result carries; the rest is cut and `truncated` says so. */
export const MCP_BODY_LIMIT = 65_536;

/** The resource as a tool returns it: status, content type, body cut at `MCP_BODY_LIMIT` characters. */
export function resourceForModel(resource: ResourceResponse): Record<string, unknown> {
  const truncated = resource.body.length > MCP_BODY_LIMIT;
  return {
    status: resource.status,
    contentType: resource.contentType ?? null,
    body: truncated ? resource.body.slice(0, MCP_BODY_LIMIT) : resource.body,
    truncated,
  };
}

/**
 * A purchase's outcome as an MCP tool result: paid or free is a result with the resource and the payment
 * (amount in token and base units, id, burn, phase); everything else is a tool error with the reason code
 * and a sentence to relay. Never the key, a signature or the stored payment header: outcomes hold none.
 */
export function outcomeToolResult(outcome: PayOutcome, format: AmountFormat): CallToolResult {
  switch (outcome.kind) {
    case "paid":
      return toolResult(`Paid ${format(outcome.offer.amount)} (payment ${outcome.id}); the resource answered HTTP ${outcome.resource.status}.`, {
        payment: {
          result: "paid",
          id: outcome.id,
          amount: format(outcome.offer.amount),
          amountBaseUnits: outcome.offer.amount.toString(),
          network: outcome.offer.network,
          asset: outcome.offer.asset,
          transaction: outcome.transaction ?? null,
          phase: "settled",
        },
        resource: resourceForModel(outcome.resource),
      });
    case "not-required":
      return toolResult(`No payment was needed; the resource answered HTTP ${outcome.resource.status}.`, {
        payment: { result: "not_required" },
        resource: resourceForModel(outcome.resource),
      });
    case "http-error":
      return toolError("http_error", `The resource answered HTTP ${outcome.status} without offering a payment; nothing was paid.`, {
        status: outcome.status,
        resource: resourceForModel(outcome.resource),
      });
    case "declined":
      return toolError(outcome.reason, `The payer's policy refused to pay: ${outcome.message}. Nothing was signed.`, { id: outcome.id ?? null });
    case "approval-denied":
      return outcome.result === "denied"
        ? toolError("approval_denied", `A human denied payment ${outcome.id}; nothing was paid. Do not retry without asking the user.`, { id: outcome.id })
        : toolError("approval_timed_out", `Nobody approved payment ${outcome.id} in time; nothing was paid.`, { id: outcome.id });
    case "failed":
      return toolError(outcome.errorReason ?? "payment_failed", `The payment failed: ${outcome.message}`, { id: outcome.id ?? null });
    case "unknown":
      return toolError(
        "outcome_unknown",
        `Payment ${outcome.id} may or may not have gone through (${outcome.message}). Never pay again for it: call resend_payment with id ${outcome.id}.`,
        { id: outcome.id },
      );
  }
}
