import { describe, expect, it } from "vitest";

import { canonicalJson } from "./canonicalJson.js";
import { CanonicalJsonError } from "./errors.js";

describe("canonicalJson (RFC 8785)", () => {
  it("sorts keys by UTF-16 code units and drops whitespace", () => {
    expect(canonicalJson({ b: [1, { z: true, a: null }], a: "x", B: 2, "\u00e9": 3 })).toBe('{"B":2,"a":"x","b":[1,{"a":null,"z":true}],"é":3}');
  });

  it("writes numbers in ECMAScript form", () => {
    expect(canonicalJson([1e21, 0.000001, -0, 100])).toBe("[1e+21,0.000001,0,100]");
  });

  it("refuses values JSON cannot carry", () => {
    expect(() => canonicalJson(undefined)).toThrow(CanonicalJsonError);
    expect(() => canonicalJson(Number.NaN)).toThrow(CanonicalJsonError);
  });

  it("refuses a value nested too deep or holding an overflowed number with its own error, not a RangeError", () => {
    const deep = JSON.parse(`${"[".repeat(5000)}${"]".repeat(5000)}`) as unknown;
    expect(() => canonicalJson(deep)).toThrow(CanonicalJsonError);
    expect(() => canonicalJson(deep)).toThrow(/nests deeper than 64 levels/);
    expect(() => canonicalJson(JSON.parse('{"x":1e400}'))).toThrow(/number outside the finite range/);
  });
});
