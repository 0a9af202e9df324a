import { describe, expect, it } from "vitest";

import { describeSpendAmount, spendAmountInBaseUnits } from "./spendAmount.js";

describe("spendAmountInBaseUnits", () => {
  it("converts token units with the token's decimals", () => {
    expect(spendAmountInBaseUnits({ unit: "token", text: "0.002" }, 18)).toBe(2_000_000_000_000_000n);
    expect(spendAmountInBaseUnits({ unit: "token", text: "1.5" }, 6)).toBe(1_500_000n);
    expect(spendAmountInBaseUnits({ unit: "token", text: "3.0" }, 0)).toBe(3n);
  });

  it("drops digits beyond the token's precision, so a limit only rounds down", () => {
    expect(spendAmountInBaseUnits({ unit: "token", text: "0.0000019" }, 6)).toBe(1n);
    expect(spendAmountInBaseUnits({ unit: "token", text: "0.0000009" }, 6)).toBe(0n);
  });

  it("needs the decimals only for token units", () => {
    expect(spendAmountInBaseUnits({ unit: "token", text: "0.002" }, undefined)).toBeUndefined();
    expect(spendAmountInBaseUnits({ unit: "base", value: 7n }, undefined)).toBe(7n);
  });
});

describe("describeSpendAmount", () => {
  it("reads in the token's units with its symbol, or says which units it was written in", () => {
    const token = { symbol: "zFIX", decimals: 18 };
    expect(describeSpendAmount({ unit: "base", value: 2_000_000_000_000_000n }, token)).toBe("0.002 zFIX");
    expect(describeSpendAmount({ unit: "token", text: "0.002" }, token, { baseUnits: true })).toBe("0.002 zFIX (2000000000000000 base units)");
    expect(describeSpendAmount({ unit: "token", text: "0.002" }, undefined)).toBe("0.002 token units");
    expect(describeSpendAmount({ unit: "base", value: 5n }, undefined)).toBe("5 base units");
  });
});
