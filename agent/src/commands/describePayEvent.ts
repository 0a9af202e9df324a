import { toNetwork } from "@svc/scheme";

import type { AmountFormat } from "../payment/amountFormat.js";
import type { PayEvent } from "../payment/payEvent.js";

/** A progress line for stderr, or `undefined` for events not worth a line; amounts read in `format`. */
export function describePayEvent(event: PayEvent, binaryName: string, format: AmountFormat): string | undefined {
  switch (event.type) {
    case "quoted": {
      const { offer } = event.quote;
      return `offer: ${format(offer.amount)} to ${event.quote.url.host} on ${toNetwork(offer.chainId)} (token ${offer.asset}), expires ${new Date(offer.expiresAt * 1000).toISOString()}`;
    }
    case "reserved":
      return `payment ${event.id}: spend reserved`;
    case "approval-pending": {
      const { id, threshold, decideBy, decideByReason, amount, url } = event.request;
      return `payment ${id} needs approval (${format(amount)} to ${new URL(url).host}, above SVC_APPROVE_ABOVE ${format(threshold)}): run \`${binaryName} approvals approve ${id}\` or \`${binaryName} approvals deny ${id}\`, or answer in \`${binaryName} tui\`; waiting until ${new Date(decideBy).toISOString()}${decideByReason === "offer_expiry" ? " (the offer's last usable moment)" : ""}`;
    }
    case "approval-decided":
      return `payment ${event.id}: approval ${event.result}`;
    case "phase":
      return `payment ${event.id}: ${event.phase}${event.txHash === undefined ? "" : ` ${event.txHash}`}`;
  }
}
