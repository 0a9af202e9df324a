import { describe, expect, it } from "vitest";
import { burnAddressFromHash, deriveBurnAddress, meetsBurnAddressPow, openBurnAddress } from "./burnAddress.js";
import { addressToRecipient, generalRecipientField, generalRecipientHash } from "./recipientHash.js";
import { zerc20Protocol } from "./protocol/zerc20Protocol.js";

// Published vectors (R = 123456789, secret base 1000): v1 nonce 4346, v2 nonce 138276.
describe.each([
  ["zerc20-v1", 4346n, "0x14c7a9ca62574b09437a1eaf1cc92a5aa869d2f8"],
  ["zerc20-v2", 138276n, "0x3034a16d0e8b774fc609a8adcbe89ed3c5bad8c3"],
] as const)("burn address under %s", (version, nonce, address) => {
  const protocol = zerc20Protocol(version);
  const derived = deriveBurnAddress(protocol, 123456789n, 1000n);

  it("derives the published vector", () => {
    expect(derived.nonce).toBe(nonce);
    expect(derived.secret).toBe(1000n + nonce);
    expect(derived.burnAddress.toLowerCase()).toBe(address);
  });

  it("rejects the secret just below the found one, and opens the found one", () => {
    expect(meetsBurnAddressPow(protocol, protocol.burnAddressHash(123456789n, derived.secret - 1n))).toBe(false);
    expect(openBurnAddress(protocol, 123456789n, derived.secret - 1n)).toBeUndefined();
    expect(openBurnAddress(protocol, 123456789n, derived.secret)).toBe(derived.burnAddress);
    expect(burnAddressFromHash(protocol.burnAddressHash(123456789n, derived.secret))).toBe(derived.burnAddress);
  });
});

describe("recipient hash", () => {
  it("forces byte 0 of the recipient hash to 0x01 and keeps the rest of sha256", () => {
    const gr = {
      chainId: 31337n,
      recipient: addressToRecipient("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"),
      tweak: `0x${"ab".repeat(32)}` as const,
    };
    const hash = generalRecipientHash(gr);
    expect(hash.slice(0, 4)).toBe("0x01");
    expect(hash).toHaveLength(66);
    expect(generalRecipientField(gr)).toBe(BigInt(hash));
    expect(generalRecipientHash({ ...gr, tweak: `0x${"ac".repeat(32)}` })).not.toBe(hash);
  });
});
