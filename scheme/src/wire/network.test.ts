import { describe, expect, it } from "vitest";

import { InvalidNetworkError } from "./errors.js";
import { NetworkSchema, parseNetwork, toNetwork } from "./network.js";

describe("NetworkSchema", () => {
  it.each(["eip155:1", "eip155:31337", "eip155:8453"])("accepts %s", (value) => {
    expect(NetworkSchema.parse(value)).toBe(value);
  });

  it.each(["eip155:0", "eip155:01", "eip155:", "eip155:-1", "eip155:1.5", "solana:1", "EIP155:1", "31337", "eip155:99999999999999999"])(
    "rejects %s",
    (value) => {
      expect(NetworkSchema.safeParse(value).success).toBe(false);
    },
  );
});

describe("toNetwork / parseNetwork", () => {
  it("round-trips a chain id", () => {
    expect(toNetwork(31337)).toBe("eip155:31337");
    expect(parseNetwork(toNetwork(31337))).toBe(31337);
  });

  it("throws InvalidNetworkError on a bad identifier", () => {
    expect(() => parseNetwork("eip155:abc")).toThrowErrorMatchingInlineSnapshot(
      `[InvalidNetworkError: Invalid network "eip155:abc": expected eip155:<chainId>.]`,
    );
    expect(() => parseNetwork("solana:mainnet")).toThrow(InvalidNetworkError);
  });

  it("throws InvalidNetworkError on a bad chain id", () => {
    expect(() => toNetwork(0)).toThrow(InvalidNetworkError);
    expect(() => toNetwork(1.5)).toThrow(InvalidNetworkError);
  });

  it("quotes an oversized input only briefly", () => {
    expect(() => parseNetwork("x".repeat(500))).toThrow(/^Invalid network "x{40}…"/);
  });
});
