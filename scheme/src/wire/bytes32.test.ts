import { describe, expect, it } from "vitest";

import { Bytes32Schema } from "./bytes32.js";
import { SignatureHexSchema } from "./signatureHex.js";

describe("Bytes32Schema", () => {
  it("accepts 32 bytes of hex in either case and keeps the spelling", () => {
    const mixed = `0x${"aB".repeat(32)}`;
    expect(Bytes32Schema.parse(mixed)).toBe(mixed);
  });

  it.each([
    ["31 bytes", `0x${"ab".repeat(31)}`],
    ["33 bytes", `0x${"ab".repeat(33)}`],
    ["no prefix", "ab".repeat(32)],
    ["non-hex", `0x${"zz".repeat(32)}`],
    ["empty", ""],
  ])("rejects %s", (_label, value) => {
    expect(Bytes32Schema.safeParse(value).success).toBe(false);
  });
});

describe("SignatureHexSchema", () => {
  it("accepts 65 bytes", () => {
    expect(SignatureHexSchema.safeParse(`0x${"ab".repeat(65)}`).success).toBe(true);
  });

  it.each([
    ["64 bytes", `0x${"ab".repeat(64)}`],
    ["66 bytes", `0x${"ab".repeat(66)}`],
  ])("rejects %s", (_label, value) => {
    expect(SignatureHexSchema.safeParse(value).success).toBe(false);
  });
});
