import { buildBurnAuthorizationTypedData, buildPermitTypedData, type Offer } from "@svc/scheme";
import { hashTypedData } from "viem";
import { describe, expect, it } from "vitest";
import { createTypedDataDigests } from "./createTypedDataDigests.js";

const offer: Offer = {
  challengeNonce: `0x${"01".repeat(32)}`,
  chainId: 31337,
  asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  amount: 1010n,
  payTo: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
  expiresAt: 1_900_000_000,
  helper: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
  deadline: 1_900_000_000,
  fee: undefined,
};
const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("createTypedDataDigests", () => {
  it("answers a repeated message from memory with exactly the digest hashing gives", () => {
    const digests = createTypedDataDigests({ capacity: 8 });
    const permit = buildPermitTypedData({ offer, payer, nonce: 0n, tokenName: "Fixture zERC20" });
    const burn = buildBurnAuthorizationTypedData({ offer, payer });
    expect(digests.digest(permit)).toBe(hashTypedData(permit));
    expect(digests.digest(burn)).toBe(hashTypedData(burn));
    // Rebuilt from the same inputs, as /settle does after /verify: new objects, the same digests, no hashing.
    expect(digests.digest(buildPermitTypedData({ offer, payer, nonce: 0n, tokenName: "Fixture zERC20" }))).toBe(hashTypedData(permit));
    expect(digests.digest(buildBurnAuthorizationTypedData({ offer, payer }))).toBe(hashTypedData(burn));
    expect(digests.counts()).toEqual({ hashed: 2, reused: 2 });
  });

  it("hashes afresh when any input differs: a field, the domain, or a bigint written as a string", () => {
    const digests = createTypedDataDigests({ capacity: 8 });
    const permit = buildPermitTypedData({ offer, payer, nonce: 0n, tokenName: "Fixture zERC20" });
    digests.digest(permit);
    const nextNonce = buildPermitTypedData({ offer, payer, nonce: 1n, tokenName: "Fixture zERC20" });
    const otherName = buildPermitTypedData({ offer, payer, nonce: 0n, tokenName: "Other" });
    const otherAmount = buildBurnAuthorizationTypedData({ offer: { ...offer, amount: 1011n }, payer });
    expect(digests.digest(nextNonce)).toBe(hashTypedData(nextNonce));
    expect(digests.digest(otherName)).toBe(hashTypedData(otherName));
    expect(digests.digest(otherAmount)).toBe(hashTypedData(otherAmount));
    expect(new Set([permit, nextNonce, otherName].map((data) => digests.digest(data))).size).toBe(3);
    const asString = { ...permit, message: { ...permit.message, value: "1010" } } as unknown as typeof permit;
    digests.digest(asString);
    expect(digests.counts()).toEqual({ hashed: 5, reused: 3 });
  });

  it("remembers no typed data that fails to hash, and evicts the least recently used past its capacity", () => {
    const digests = createTypedDataDigests({ capacity: 2 });
    const broken = {
      ...buildBurnAuthorizationTypedData({ offer, payer }),
      message: { ...buildBurnAuthorizationTypedData({ offer, payer }).message, value: -1n },
    };
    expect(digests.digest(broken)).toBeUndefined();
    expect(digests.digest(broken)).toBeUndefined();
    const permitWith = (nonce: bigint) => buildPermitTypedData({ offer, payer, nonce, tokenName: "Fixture zERC20" });
    const [a, b, c] = [permitWith(0n), permitWith(1n), permitWith(2n)];
    for (const data of [a, b, a, c]) digests.digest(data);
    // a was used after b, so b went when c came.
    digests.digest(a);
    digests.digest(b);
    expect(digests.counts()).toEqual({ hashed: 2 + 4, reused: 2 });
  });
});
