import { describe, expect, it } from "vitest";

import { amountFormat, BASE_UNITS_FORMAT } from "./amountFormat.js";

describe("amount formats", () => {
  it("prints token units and symbol, exact, and base units only on request", () => {
    const zfix = { symbol: "zFIX", decimals: 18 };
    expect(amountFormat(zfix)("1010000000000000")).toBe("0.00101 zFIX");
    expect(amountFormat(zfix)(6000000000000000n)).toBe("0.006 zFIX");
    expect(amountFormat(zfix)("0")).toBe("0 zFIX");
    expect(amountFormat(zfix, { baseUnits: true })("1010")).toBe("0.00000000000000101 zFIX (1010 base units)");
    expect(amountFormat(undefined)("1010")).toBe("1010 base units");
    expect(BASE_UNITS_FORMAT(5n)).toBe("5 base units");
  });
});
