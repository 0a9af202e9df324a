import type { PayEvent } from "../payment/payEvent.js";

/** A progress line for stderr, or `undefined` for events not worth a line. */
export function describePayEvent(event: PayEvent, binaryName: string): string | undefined {
  switch (event.type) {
    case "quoted": {
      const { offer } = event.quote;
      return `offer: ${offer.amount} base units of ${offer.asset} on ${offer.network}, expires ${new Date(offer.extra.expiresAt * 1000).toISOString()}`;
    }
    case "reserved":
      return `payment ${event.id}: spend reserved`;
    case "approval-pending": {
      const { id, threshold, decideBy, decideByReason } = event.request;
      return `payment ${id} needs approval (above SVC_APPROVE_ABOVE ${threshold}): run \`${binaryName} approvals approve ${id}\` or \`${binaryName} approvals deny ${id}\`, or answer in \`${binaryName} tui\`; waiting until ${new Date(decideBy).toISOString()}${decideByReason === "offer_expiry" ? " (the offer's last usable moment)" : ""}`;
    }
    case "approval-decided":
      return `payment ${event.id}: approval ${event.result}`;
    case "phase":
      return `payment ${event.id}: ${event.phase}${event.txHash === undefined ? "" : ` ${event.txHash}`}`;
  }
}
