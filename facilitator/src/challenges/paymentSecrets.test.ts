import { BN254_FIELD_MODULUS } from "@svc/scheme";
import { concat, hexToBigInt, keccak256, toHex } from "viem";
import { describe, expect, it } from "vitest";

import { deriveBurnSeed } from "./burnSeed.js";
import { derivePaymentSecretBase, derivePaymentTweak, PAYMENT_SECRET_TAG, PAYMENT_TWEAK_TAG } from "./paymentSecrets.js";
import { TEST_RELAYER_PK, TEST_TREASURY_PK } from "../config/testing/buildConfig.js";

const seed = deriveBurnSeed(TEST_TREASURY_PK);
const otherSeed = deriveBurnSeed(TEST_RELAYER_PK);
const id = keccak256(toHex("payment 1"));
const otherId = keccak256(toHex("payment 2"));

describe("per-payment secrets", () => {
  it("follow the documented formulas", () => {
    expect([PAYMENT_SECRET_TAG, PAYMENT_TWEAK_TAG]).toEqual(["psec", "ptwk"]);
    expect(derivePaymentSecretBase(seed, id)).toBe(hexToBigInt(keccak256(concat([toHex("psec"), seed, id]))) % BN254_FIELD_MODULUS);
    expect(derivePaymentTweak(seed, id)).toBe(keccak256(concat([toHex("ptwk"), seed, id])));
  });

  it("are deterministic", () => {
    expect(derivePaymentSecretBase(seed, id)).toBe(derivePaymentSecretBase(seed, id));
    expect(derivePaymentTweak(seed, id)).toBe(derivePaymentTweak(seed, id));
  });

  it("keep the secret base inside the BN254 field", () => {
    for (let i = 0; i < 64; i++) {
      const value = derivePaymentSecretBase(seed, keccak256(toHex(i)));
      expect(value >= 0n && value < BN254_FIELD_MODULUS).toBe(true);
    }
  });

  it("are domain separated: the secret and the tweak of one payment are unrelated", () => {
    expect(toHex(derivePaymentSecretBase(seed, id), { size: 32 })).not.toBe(derivePaymentTweak(seed, id));
    expect(hexToBigInt(derivePaymentTweak(seed, id)) % BN254_FIELD_MODULUS).not.toBe(derivePaymentSecretBase(seed, id));
  });

  it("change with the payment id and with the seed", () => {
    expect(derivePaymentSecretBase(seed, otherId)).not.toBe(derivePaymentSecretBase(seed, id));
    expect(derivePaymentTweak(seed, otherId)).not.toBe(derivePaymentTweak(seed, id));
    expect(derivePaymentSecretBase(otherSeed, id)).not.toBe(derivePaymentSecretBase(seed, id));
    expect(derivePaymentTweak(otherSeed, id)).not.toBe(derivePaymentTweak(seed, id));
  });
});
