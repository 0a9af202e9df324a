import type { Policy } from "./policy.js";
import { type SpendAmount, spendAmountInBaseUnits } from "./spendAmount.js";

/** The policy's amount limits in base units of one token; an absent field is no limit. */
export type TokenLimits = {
  maxPerPayment: bigint | undefined;
  maxTotal: bigint | undefined;
  approveAbove: bigint | undefined;
};

/**
 * The policy's limits in base units of a token with `decimals` (read from the token on-chain, never from
 * the offer: the other party must not be able to move the payer's limits). `undefined` when a limit is in
 * token units and the decimals are unknown: the payment is then refused rather than judged without it.
 */
export function limitsForToken(policy: Pick<Policy, "maxPerPayment" | "maxTotal" | "approveAbove">, decimals: number | undefined): TokenLimits | undefined {
  let unknown = false;
  const convert = (amount: SpendAmount | undefined): bigint | undefined => {
    if (amount === undefined) return undefined;
    const base = spendAmountInBaseUnits(amount, decimals);
    if (base === undefined) unknown = true;
    return base;
  };
  const limits = { maxPerPayment: convert(policy.maxPerPayment), maxTotal: convert(policy.maxTotal), approveAbove: convert(policy.approveAbove) };
  return unknown ? undefined : limits;
}
