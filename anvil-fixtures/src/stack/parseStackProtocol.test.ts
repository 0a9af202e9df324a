import { describe, expect, it } from "vitest";
import { InvalidStackProtocolError, parseStackProtocol } from "./parseStackProtocol.js";

describe("parseStackProtocol", () => {
  it("maps v1 and v2 to the protocol versions and defaults to zerc20-v2", () => {
    expect(parseStackProtocol("v1")).toBe("zerc20-v1");
    expect(parseStackProtocol("v2")).toBe("zerc20-v2");
    expect(parseStackProtocol(undefined)).toBe("zerc20-v2");
    expect(parseStackProtocol("")).toBe("zerc20-v2");
  });

  it("refuses anything else with a named error", () => {
    expect(() => parseStackProtocol("zerc20-v1")).toThrow(InvalidStackProtocolError);
    expect(() => parseStackProtocol("constructor")).toThrowErrorMatchingInlineSnapshot(
      `[InvalidStackProtocolError: STACK_PROTOCOL must be v1 or v2, got "constructor"]`,
    );
  });
});
