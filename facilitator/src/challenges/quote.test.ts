import { describe, expect, it } from "vitest";

import { QuoteOutOfRangeError } from "./errors.js";
import { MAX_TRANSFER_VALUE } from "../config/facilitatorConfigSchema.js";
import { computeFee, quote, type FeeRate } from "./quote.js";

function rate(overrides: Partial<FeeRate> = {}): FeeRate {
  return { bps: 100, min_per_payment: 0n, charge_to: "payer", ...overrides };
}

describe("computeFee", () => {
  it.each([
    // [list, bps, min, fee]
    [0n, 100, 0n, 0n],
    [1n, 100, 0n, 1n], // 0.01 rounds up to 1
    [99n, 100, 0n, 1n],
    [100n, 100, 0n, 1n], // exact
    [101n, 100, 0n, 2n],
    [9_999n, 1, 0n, 1n], // 0.9999 rounds up
    [10_000n, 1, 0n, 1n], // exact
    [10_001n, 1, 0n, 2n], // 1.0001 rounds up
    [9_999n, 10_000, 0n, 9_999n], // 100%
    [1n, 0, 0n, 0n], // zero rate
    [10_000n, 0, 7n, 7n], // fixed fee only
    [0n, 250, 5n, 5n], // the minimum applies to a free price
    [1_000n, 250, 5n, 25n], // proportional above the minimum
    [100n, 250, 5n, 5n], // ceil(2.5) = 3, below the minimum
    [10n ** 30n, 1, 0n, 10n ** 26n],
    [10n ** 30n + 1n, 1, 0n, 10n ** 26n + 1n],
    [MAX_TRANSFER_VALUE, 10_000, 0n, MAX_TRANSFER_VALUE],
    [MAX_TRANSFER_VALUE, 1, 0n, (MAX_TRANSFER_VALUE + 9_999n) / 10_000n],
  ])("list %s at %i bps with minimum %s costs %s", (list, bps, min, fee) => {
    expect(computeFee(list, { bps, min_per_payment: min })).toBe(fee);
  });

  it("equals the real-number ceiling for every list price up to 20000 at several rates", () => {
    for (const bps of [1, 3, 100, 333, 9_999]) {
      for (let list = 0n; list <= 20_000n; list += 7n) {
        const exact = (Number(list) * bps) / 10_000;
        expect(computeFee(list, { bps, min_per_payment: 0n })).toBe(BigInt(Math.ceil(exact - 1e-9)));
      }
    }
  });
});

describe("quote", () => {
  it("without a fee quotes the list price", () => {
    expect(quote(1_000n, undefined)).toEqual({ amount: 1_000n, fee: 0n, payout: 1_000n, extraFee: undefined });
  });

  it("under payer-charged fees adds the fee and shows it in extra.fee", () => {
    expect(quote(1_000n, rate())).toEqual({
      amount: 1_010n,
      fee: 10n,
      payout: 1_000n,
      extraFee: { amount: 10n, bps: 100 },
    });
  });

  it("under payer-charged fees charges the minimum on a zero list price", () => {
    expect(quote(0n, rate({ min_per_payment: 3n }))).toEqual({
      amount: 3n,
      fee: 3n,
      payout: 0n,
      extraFee: { amount: 3n, bps: 100 },
    });
  });

  it("under provider-charged fees keeps the list price and takes the fee from the payout", () => {
    expect(quote(1_000n, rate({ charge_to: "provider" }))).toEqual({
      amount: 1_000n,
      fee: 10n,
      payout: 990n,
      extraFee: undefined,
    });
  });

  it("under provider-charged fees caps a fee above the amount, so the payout is zero, never negative", () => {
    expect(quote(4n, rate({ charge_to: "provider", min_per_payment: 10n }))).toEqual({
      amount: 4n,
      fee: 4n,
      payout: 0n,
      extraFee: undefined,
    });
    expect(quote(0n, rate({ charge_to: "provider", min_per_payment: 10n }))).toMatchObject({ fee: 0n, payout: 0n });
  });

  it("keeps amount = payout + fee in every mode", () => {
    for (const charge_to of ["payer", "provider"] as const) {
      for (const list of [0n, 1n, 9_999n, 10_000n, 10_001n, 10n ** 24n]) {
        const q = quote(list, rate({ charge_to, bps: 37, min_per_payment: 2n }));
        expect(q.payout + q.fee).toBe(q.amount);
        expect(q.payout >= 0n).toBe(true);
      }
    }
  });

  it("refuses a negative list price", () => {
    expect(() => quote(-1n, undefined)).toThrow(QuoteOutOfRangeError);
  });

  it("refuses an amount above the largest zERC20 transfer value", () => {
    expect(quote(MAX_TRANSFER_VALUE, undefined).amount).toBe(MAX_TRANSFER_VALUE);
    expect(() => quote(MAX_TRANSFER_VALUE, rate())).toThrowErrorMatchingInlineSnapshot(
      `[QuoteOutOfRangeError: Cannot quote this price: the quoted amount exceeds the largest zERC20 transfer value (2^248 - 1).]`,
    );
    expect(quote(MAX_TRANSFER_VALUE, rate({ charge_to: "provider" })).amount).toBe(MAX_TRANSFER_VALUE);
  });
});
