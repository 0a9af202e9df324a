import { type Hex, keccak256, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";

import { InvalidSignatureError } from "./errors.js";
import { TEST_PAYER_KEY } from "../testing/builders.js";
import { joinSignature } from "./joinSignature.js";
import { splitSignature } from "./splitSignature.js";

const account = privateKeyToAccount(TEST_PAYER_KEY);

describe("splitSignature / joinSignature", () => {
  it("round-trips a real signature", async () => {
    const signature = await account.signMessage({ message: "svc-zerc20" });
    const parts = splitSignature(signature);
    expect([27, 28]).toContain(parts.v);
    expect(parts.r).toBe(signature.slice(0, 66));
    expect(parts.s).toBe(`0x${signature.slice(66, 130)}`);
    expect(joinSignature(parts)).toBe(signature);
  });

  it("normalises a 0/1 parity byte to 27/28", async () => {
    const signature = await account.signMessage({ message: "svc-zerc20" });
    const parity: Hex = `0x${signature.slice(2, 130)}${signature.endsWith("1b") ? "00" : "01"}`;
    expect(splitSignature(parity)).toEqual(splitSignature(signature));
  });

  it.each([
    ["64 bytes", `0x${"11".repeat(64)}`],
    ["a v byte of 29", `0x${"11".repeat(64)}1d`],
    ["r = 0", `0x${"00".repeat(32)}${"11".repeat(32)}1b`],
  ] as const)("rejects %s without quoting it", (_label, signature) => {
    expect(() => splitSignature(signature)).toThrow(InvalidSignatureError);
    try {
      splitSignature(signature);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidSignatureError);
      expect(String(error)).not.toContain("1111");
    }
  });

  it("rejects parts with s out of range", () => {
    const tooLarge = `0x${"ff".repeat(32)}` as const;
    expect(() => joinSignature({ v: 27, r: keccak256(toHex("r")), s: tooLarge })).toThrowErrorMatchingInlineSnapshot(
      `[InvalidSignatureError: Invalid signature: expected 65 bytes r || s || v with r and s in range and v 0, 1, 27 or 28.]`,
    );
  });
});
