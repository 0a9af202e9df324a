import { outcomeOfferJson } from "../payment/outcomeOffer.js";
import type { PayOutcome } from "../payment/payOutcome.js";

/**
 * The one JSON object `pay --json` and `resend --json` print. `result` is a stable snake_case word scripts
 * switch on: `paid`, `not_required`, `http_error`, `declined`, `approval_denied`, `failed`, `unknown`.
 */
export function outcomeJson(outcome: PayOutcome): Record<string, unknown> {
  switch (outcome.kind) {
    case "paid":
      return { result: "paid", id: outcome.id, ...outcomeOfferJson(outcome.offer), transaction: outcome.transaction, resource: outcome.resource };
    case "not-required":
      return { result: "not_required", resource: outcome.resource };
    case "http-error":
      return { result: "http_error", status: outcome.status, message: outcome.message, resource: outcome.resource };
    case "declined":
      return { result: "declined", reason: outcome.reason, id: outcome.id, ...outcomeOfferJson(outcome.offer), message: outcome.message };
    case "approval-denied":
      return {
        result: "approval_denied",
        id: outcome.id,
        decision: outcome.result === "denied" ? "denied" : "timed_out",
        ...outcomeOfferJson(outcome.offer),
        message: outcome.message,
      };
    case "failed":
      return {
        result: "failed",
        id: outcome.id,
        ...outcomeOfferJson(outcome.offer),
        errorReason: outcome.errorReason,
        message: outcome.message,
        resource: outcome.resource,
      };
    case "unknown":
      return { result: "unknown", id: outcome.id, ...outcomeOfferJson(outcome.offer), errorReason: outcome.errorReason, message: outcome.message };
  }
}
