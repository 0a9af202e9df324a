import { concat, keccak256, toHex } from "viem";
import { describe, expect, it } from "vitest";

import { BURN_SEED_TAG, deriveBurnSeed } from "./burnSeed.js";
import { TEST_RELAYER_PK, TEST_TREASURY_PK } from "../config/testing/buildConfig.js";

describe("deriveBurnSeed", () => {
  it("is keccak256 of the tag followed by the key bytes", () => {
    expect(BURN_SEED_TAG).toBe("svc-zerc20/burn-seed/v1");
    expect(deriveBurnSeed(TEST_TREASURY_PK)).toBe(keccak256(concat([toHex("svc-zerc20/burn-seed/v1"), TEST_TREASURY_PK])));
  });

  it("is deterministic, 32 bytes, and differs per key", () => {
    const seed = deriveBurnSeed(TEST_TREASURY_PK);
    expect(deriveBurnSeed(TEST_TREASURY_PK)).toBe(seed);
    expect(seed).toMatch(/^0x[0-9a-f]{64}$/);
    expect(deriveBurnSeed(TEST_RELAYER_PK)).not.toBe(seed);
  });

  it("is domain separated: neither the key, nor its plain hash, nor another tag's hash", () => {
    const seed = deriveBurnSeed(TEST_TREASURY_PK);
    expect(seed).not.toBe(TEST_TREASURY_PK);
    expect(seed).not.toBe(keccak256(TEST_TREASURY_PK));
    expect(seed).not.toBe(keccak256(concat([toHex("svc-zerc20/burn-seed/v2"), TEST_TREASURY_PK])));
  });
});
