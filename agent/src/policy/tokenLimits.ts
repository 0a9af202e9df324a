import type { SpendLimitName } from "../ledger/spendLimits.js";
import type { Policy } from "./policy.js";
import { type SpendAmount, spendAmountInBaseUnits } from "./spendAmount.js";

/** The policy's amount limits in base units of one token; an absent field is no limit. */
export type TokenLimits = Record<SpendLimitName | "maxPerPayment" | "approveAbove", bigint | undefined>;

/** The policy fields `limitsForToken` converts. */
export type AmountLimitsPolicy = Pick<Policy, keyof TokenLimits>;

/**
 * The policy's limits in base units of a token with `decimals` (read from the token on-chain, never from
 * the offer: the other party must not be able to move the payer's limits). `undefined` when a limit is in
 * token units and the decimals are unknown: the payment is then refused rather than judged without it.
 */
export function limitsForToken(policy: AmountLimitsPolicy, decimals: number | undefined): TokenLimits | undefined {
  let unknown = false;
  const convert = (amount: SpendAmount | undefined): bigint | undefined => {
    if (amount === undefined) return undefined;
    const base = spendAmountInBaseUnits(amount, decimals);
    if (base === undefined) unknown = true;
    return base;
  };
  const limits: TokenLimits = {
    maxPerPayment: convert(policy.maxPerPayment),
    maxTotal: convert(policy.maxTotal),
    maxPerHour: convert(policy.maxPerHour),
    maxPerDay: convert(policy.maxPerDay),
    maxPerWeek: convert(policy.maxPerWeek),
    maxPerMonth: convert(policy.maxPerMonth),
    maxPerHost: convert(policy.maxPerHost),
    maxPerMcpSession: convert(policy.maxPerMcpSession),
    approveAbove: convert(policy.approveAbove),
  };
  return unknown ? undefined : limits;
}
