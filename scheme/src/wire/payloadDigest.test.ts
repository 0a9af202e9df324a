import { describe, expect, it } from "vitest";

import { buildPermitPayload, buildSelfTransferPayload, TEST_BURN_TX_HASH } from "../testing/builders.js";
import { payloadDigest } from "./payloadDigest.js";
import { paymentIdentity } from "./paymentIdentity.js";

const upper = (hex: string) => `0x${hex.slice(2).toUpperCase()}`;

describe("payloadDigest is the payment's semantic identity", () => {
  const permit = buildPermitPayload();
  const selfTransfer = buildSelfTransferPayload();

  it("ignores unknown keys, key order and hex case", () => {
    const reordered = { burnAuthSig: permit.burnAuthSig, permit: { ...permit.permit }, payer: permit.payer, challengeNonce: permit.challengeNonce };
    const extraKey = { ...permit, x: 1, permit: { ...permit.permit, note: "y" } };
    const recased = {
      ...permit,
      payer: permit.payer.toLowerCase(),
      challengeNonce: upper(permit.challengeNonce),
      burnAuthSig: upper(permit.burnAuthSig),
      permit: { ...permit.permit, r: upper(permit.permit.r), s: upper(permit.permit.s) },
    };
    for (const variant of [reordered, extraKey, recased]) expect(payloadDigest(variant)).toBe(payloadDigest(permit));
    expect(payloadDigest({ ...selfTransfer, burnTxHash: upper(selfTransfer.burnTxHash), y: [1] })).toBe(payloadDigest(selfTransfer));
  });

  it("changes with any signed value, signature or burn", () => {
    const flipped = `${permit.burnAuthSig.slice(0, -2)}${permit.burnAuthSig.endsWith("1b") ? "1c" : "1b"}` as const;
    const variants = [
      { ...permit, burnAuthSig: flipped },
      { ...permit, permit: { ...permit.permit, v: permit.permit.v === 27 ? (28 as const) : (27 as const) } },
      { ...permit, permit: { ...permit.permit, nonce: `${BigInt(permit.permit.nonce) + 1n}` } },
      { ...permit, payer: "0x0000000000000000000000000000000000000001" as const },
    ];
    const digests = new Set([payloadDigest(permit), ...variants.map((variant) => payloadDigest(variant))]);
    expect(digests.size).toBe(variants.length + 1);
    const otherBurn = `${TEST_BURN_TX_HASH.slice(0, -1)}${TEST_BURN_TX_HASH.endsWith("0") ? "1" : "0"}` as const;
    expect(payloadDigest({ ...selfTransfer, burnTxHash: otherBurn })).not.toBe(payloadDigest(selfTransfer));
  });

  it("keeps a permit payment and a self-transfer payment for one challenge apart", () => {
    expect(payloadDigest(permit)).not.toBe(payloadDigest(selfTransfer));
    expect(paymentIdentity(permit)).toHaveProperty("burnAuthSig");
    expect(paymentIdentity(selfTransfer)).toEqual({
      challengeNonce: selfTransfer.challengeNonce.toLowerCase(),
      burnTxHash: selfTransfer.burnTxHash.toLowerCase(),
    });
  });

  it("has no identity for a malformed payload, which is digested as written", () => {
    expect(paymentIdentity({ challengeNonce: permit.challengeNonce })).toBeUndefined();
    expect(payloadDigest({ a: 1 })).not.toBe(payloadDigest({ a: 2 }));
  });

  it("digests a payload no canonical form exists for without throwing", () => {
    const deep = JSON.parse(`{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`) as unknown;
    const overflowed = JSON.parse('{"challengeNonce":"0x11","x":1e400}') as unknown;
    expect(payloadDigest(deep)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(payloadDigest(overflowed)).not.toBe(payloadDigest(deep));
    // A genuine payload's identity ignores an unknown key holding 1e400, as it ignores any unknown key.
    expect(payloadDigest({ ...selfTransfer, x: Number.POSITIVE_INFINITY })).toBe(payloadDigest(selfTransfer));
  });
});
