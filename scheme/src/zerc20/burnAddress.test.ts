import { describe, expect, it } from "vitest";
import { burnAddressFromHash, burnAddressHash, deriveBurnAddress, meetsBurnAddressPow } from "./burnAddress.js";
import { addressToRecipient, generalRecipientField, generalRecipientHash } from "./recipientHash.js";

describe("burn address", () => {
  const derived = deriveBurnAddress(123456789n, 1000n);

  it("matches the published Poseidon vector", () => {
    expect(derived.nonce).toBe(4346n);
    expect(derived.secret).toBe(5346n);
    expect(derived.burnAddress.toLowerCase()).toBe("0x14c7a9ca62574b09437a1eaf1cc92a5aa869d2f8");
  });

  it("rejects the secret just below the found one", () => {
    expect(meetsBurnAddressPow(burnAddressHash(123456789n, derived.secret - 1n))).toBe(false);
    expect(burnAddressFromHash(burnAddressHash(123456789n, derived.secret))).toBe(derived.burnAddress);
  });

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
