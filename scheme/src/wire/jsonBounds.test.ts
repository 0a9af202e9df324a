import { describe, expect, it } from "vitest";

import { findJsonBoundsViolation, MAX_JSON_DEPTH } from "./jsonBounds.js";

/** `levels` arrays nested inside each other, parsed from text as a request body would be. */
const nested = (levels: number): unknown => JSON.parse(`${"[".repeat(levels)}${"]".repeat(levels)}`);

describe("findJsonBoundsViolation", () => {
  it("accepts ordinary JSON values, including large finite numbers and dropped undefined members", () => {
    expect(findJsonBoundsViolation({ a: [1, "x", null, true, { b: 1e308, c: -0 }], d: undefined })).toBeUndefined();
    expect(findJsonBoundsViolation("text")).toBeUndefined();
  });

  it("accepts exactly MAX_JSON_DEPTH levels and refuses one more", () => {
    expect(findJsonBoundsViolation(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(findJsonBoundsViolation(nested(MAX_JSON_DEPTH + 1))).toBe(`nests deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it("walks hostile depth without overflowing the stack", () => {
    expect(findJsonBoundsViolation(nested(30_000))).toBe(`nests deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it.each([
    ["1e400 under an unknown key", '{"payload":{"x":1e400}}'],
    ["-1e400 inside an array", "[1,[-1e400]]"],
  ])("refuses %s, naming the rule and not the value", (_label, text) => {
    expect(findJsonBoundsViolation(JSON.parse(text))).toBe("holds a number outside the finite range");
  });

  it("refuses NaN", () => {
    expect(findJsonBoundsViolation({ x: Number.NaN })).toBe("holds a number outside the finite range");
  });
});
