import { poseidon2 } from "poseidon-lite";
import { describe, expect, it } from "vitest";

import type { BurnSecretInputs } from "./burnSecretInputs.js";
import { completeBurnSecret, completeSearchedBurnSecret } from "./completeBurnSecret.js";
import { BurnAddressVerificationError } from "./errors.js";

// The published zerc20-v1 vector: recipient 123456789, secret base 1000, nonce 4346.
const inputs: BurnSecretInputs = {
  paymentId: `0x${"11".repeat(32)}`,
  protocol: "zerc20-v1",
  tweak: `0x${"22".repeat(32)}`,
  recipientHash: `0x${"33".repeat(32)}`,
  recipientFr: 123456789n,
  secretBase: 1000n,
};
const VECTOR_ADDRESS = "0x14c7a9ca62574b09437a1eaf1cc92a5aa869d2f8";

describe("completeBurnSecret", () => {
  it("opens the vector's address from its nonce, hashing here", () => {
    expect(completeBurnSecret(inputs, 4346n)).toMatchObject({ secret: 5346n, burnAddress: expect.stringMatching(new RegExp(`^${VECTOR_ADDRESS}$`, "i")) });
    expect(() => completeBurnSecret(inputs, 4345n)).toThrow(BurnAddressVerificationError);
  });

  it("takes a worker's answer by its reference hash, and refuses a hash that misses the proof of work", () => {
    const hash = poseidon2([123456789n, 5346n]);
    const burn = completeSearchedBurnSecret(inputs, { nonce: 4346n, hash });
    expect(burn.burnAddress.toLowerCase()).toBe(VECTOR_ADDRESS);
    expect(burn).toMatchObject({ secret: 5346n, paymentId: inputs.paymentId, tweak: inputs.tweak, recipientHash: inputs.recipientHash });
    // The hash of the nonce before: its proof-of-work bits are not all zero.
    expect(() => completeSearchedBurnSecret(inputs, { nonce: 4345n, hash: poseidon2([123456789n, 5345n]) })).toThrow(BurnAddressVerificationError);
  });
});
