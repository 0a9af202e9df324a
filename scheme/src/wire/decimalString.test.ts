import { maxUint256 } from "viem";
import { describe, expect, it } from "vitest";

import { DecimalStringSchema } from "./decimalString.js";

describe("DecimalStringSchema", () => {
  it.each(["0", "1", "1000000000000000000", maxUint256.toString()])("accepts %s", (value) => {
    expect(DecimalStringSchema.parse(value)).toBe(value);
  });

  it.each([
    ["a leading zero", "01"],
    ["a sign", "-1"],
    ["a plus sign", "+1"],
    ["an exponent", "1e18"],
    ["a fraction", "1.0"],
    ["hex", "0x10"],
    ["whitespace", " 1"],
    ["the empty string", ""],
    ["a value above uint256", (maxUint256 + 1n).toString()],
  ])("rejects %s", (_label, value) => {
    expect(DecimalStringSchema.safeParse(value).success).toBe(false);
  });

  it("rejects a number", () => {
    expect(DecimalStringSchema.safeParse(1).success).toBe(false);
  });
});
