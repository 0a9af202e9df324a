import { keccak256, toHex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";

import { developmentKeyIndex, developmentKeys } from "./developmentKeys.js";

describe("developmentKeys", () => {
  it("derives anvil's ten default keys, starting with its well-known account 0", () => {
    const keys = developmentKeys();
    expect(keys).toHaveLength(10);
    expect(new Set(keys).size).toBe(10);
    expect(privateKeyToAddress(keys[0] ?? "0x")).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(privateKeyToAddress(keys[9] ?? "0x")).toBe("0xa0Ee7A142d267C1f36714E4a8F75612F20a79720");
  });

  it("computes the list once", () => {
    expect(developmentKeys()).toBe(developmentKeys());
  });

  it("finds a key in any letter case and misses other keys", () => {
    const key = developmentKeys()[4] ?? "0x";
    expect(developmentKeyIndex(key)).toBe(4);
    expect(developmentKeyIndex(`0x${key.slice(2).toUpperCase()}`)).toBe(4);
    expect(developmentKeyIndex(keccak256(toHex("not a dev key")))).toBeUndefined();
  });
});
