/**
 * The fee formula and the quote `/challenge` offers, in integers only:
 * `fee = max(min_per_payment, ceil(list * bps / 10000))`, with the ceiling computed as
 * `(list * bps + 9999) / 10000` so rounding always favours the fee side by less than one base unit.
 * - `charge_to = "payer"`: the payer pays `list + fee`; the offer shows `extra.fee = { amount, bps }`.
 * - `charge_to = "provider"`: the payer pays `list`; the fee comes out of the payout. A fee larger than the
 *   amount (a `min_per_payment` above a small list price) is capped at the amount, so the payout is zero,
 *   never negative.
 */
import type { OfferFee } from "@svc/scheme";

import { QuoteOutOfRangeError } from "./errors.js";
import { MAX_TRANSFER_VALUE, type FeeConfig } from "../config/facilitatorConfigSchema.js";

/** The parts of the fee table the formula reads. */
export type FeeRate = Pick<FeeConfig, "bps" | "min_per_payment" | "charge_to">;

/** A priced offer: what the payer pays, the fee inside it, and what reaches the provider. */
export type PricedOffer = {
  /** Quoted amount in base units: the offer's `amount`. */
  amount: bigint;
  /** Fee in base units, included in `amount`. */
  fee: bigint;
  /** `amount - fee`: what the provider's side receives. */
  payout: bigint;
  /** `extra.fee` of the offer: set only under payer-charged fees. */
  extraFee: OfferFee | undefined;
};

/** `max(min_per_payment, ceil(list * bps / 10000))` for a non-negative list price. */
export function computeFee(list: bigint, rate: Pick<FeeRate, "bps" | "min_per_payment">): bigint {
  const proportional = (list * BigInt(rate.bps) + 9999n) / 10_000n;
  return proportional > rate.min_per_payment ? proportional : rate.min_per_payment;
}

/**
 * Prices a list price under the configured fee (or none), refusing amounts no zERC20 transfer can carry.
 *
 * @example
 * quote(1000n, { bps: 100, min_per_payment: 0n, charge_to: "payer" });
 * // { amount: 1010n, fee: 10n, payout: 1000n, extraFee: { amount: 10n, bps: 100 } }
 */
export function quote(list: bigint, rate: FeeRate | undefined): PricedOffer {
  if (list < 0n) throw new QuoteOutOfRangeError({ reason: "the list price is negative" });
  const result = price(list, rate);
  if (result.amount > MAX_TRANSFER_VALUE) {
    const reason = "the quoted amount exceeds the largest zERC20 transfer value (2^248 - 1)";
    throw new QuoteOutOfRangeError({ reason });
  }
  return result;
}

function price(list: bigint, rate: FeeRate | undefined): PricedOffer {
  if (rate === undefined) return { amount: list, fee: 0n, payout: list, extraFee: undefined };
  const fee = computeFee(list, rate);
  if (rate.charge_to === "payer") {
    return { amount: list + fee, fee, payout: list, extraFee: { amount: fee, bps: rate.bps } };
  }
  const capped = fee < list ? fee : list;
  return { amount: list, fee: capped, payout: list - capped, extraFee: undefined };
}
