import type { AmountFormat } from "../payment/amountFormat.js";
import { bodyExcerpt } from "../payment/bodyExcerpt.js";
import type { PayOutcome } from "../payment/payOutcome.js";

/** The one line `pay` and `resend` print to stderr about how the payment ended; amounts read in `format`. */
export function describeOutcome(outcome: PayOutcome, format: AmountFormat): string {
  switch (outcome.kind) {
    case "paid":
      return `paid ${format(outcome.offer.amount)} on ${outcome.offer.network} (token ${outcome.offer.asset}, payment ${outcome.id}${outcome.transaction === undefined ? "" : `, burn ${outcome.transaction}`})`;
    case "not-required":
      return `no payment required (HTTP ${outcome.resource.status})`;
    case "http-error": {
      // The provider's own words (a 502 usually says which facilitator or upstream failed); --json carries the whole body.
      const explanation = bodyExcerpt(outcome.resource.body);
      return `request failed: ${outcome.message}${explanation === undefined ? "" : `; the provider says: ${explanation}`}`;
    }
    case "declined":
      return `declined by policy (${outcome.reason}): ${outcome.message}`;
    case "approval-denied":
      return `not paid (payment ${outcome.id}): ${outcome.message}`;
    case "failed":
      return `payment failed${outcome.id === undefined ? "" : ` (payment ${outcome.id})`}${outcome.errorReason === undefined ? "" : ` [${outcome.errorReason}]`}: ${outcome.message}`;
    case "unknown":
      return `outcome unknown (payment ${outcome.id})${outcome.errorReason === undefined ? "" : ` [${outcome.errorReason}]`}: ${outcome.message}`;
  }
}
