import type { ReserveResult } from "../ledger/ledger.js";
import { remainingUnder } from "../ledger/remainingUnder.js";
import { SPEND_LIMITS } from "../ledger/spendLimits.js";
import type { AmountFormat } from "./amountFormat.js";

/** Where the refused payment would have gone, for the message. */
type OverLimitContext = { network: string; asset: string; amount: bigint; host: string };

/**
 * Why a reservation was refused, naming the limit's variable, what it has left and, for a rolling window,
 * when its oldest counted payment leaves it. The total cap keeps the wording scripts already match.
 */
export function describeOverLimit(refusal: Extract<ReserveResult, { kind: "over-cap" }>, context: OverLimitContext, format: AmountFormat): string {
  const { limit, spentBefore, cap, freesAt } = refusal;
  const { network, asset, amount, host } = context;
  if (limit === "maxTotal") {
    return `paying ${format(amount)} would bring the spend on ${network} ${asset} to ${format(spentBefore + amount)}, above SVC_MAX_TOTAL (${format(cap)}); already spent or reserved: ${format(spentBefore)}`;
  }
  const definition = SPEND_LIMITS[limit];
  const where = definition.scope === "host" ? ` on ${host}` : definition.scope === "mcpSession" ? " in this MCP session" : "";
  const frees = freesAt === undefined ? "" : `; the oldest counted payment leaves the window at ${new Date(freesAt).toISOString()}`;
  return `paying ${format(amount)} would bring the spend on ${network} ${asset}${where} to ${format(spentBefore + amount)}, above ${definition.variable} (${format(cap)} ${definition.extent}); left: ${format(remainingUnder(cap, spentBefore))}${frees}`;
}
