/**
 * Test builders for challenges: burn secrets that commit to a treasury without the proof-of-work search (so
 * tests need not spend a second of CPU per address), and whole records with overrides. Shipped in `src` so
 * every test in the package can share them; nothing in the daemon imports them.
 */
import { randomBytes } from "node:crypto";
import { getAddress, toHex, type Address, type Hex } from "viem";

import { burnSecretInputs } from "../burnSecretInputs.js";
import type { BurnSecret, ChallengeRecord } from "../challengeRecord.js";

/**
 * A burn secret with the real tweak and recipient hash of a random payment id but a random address and an
 * unsearched secret: good for anything that does not re-hash the address.
 */
export function buildBurnSecret(seed: Hex, chainId: number, treasury: Address): BurnSecret {
  const inputs = burnSecretInputs(seed, { protocol: "zerc20-v2", chainId, treasury }, toHex(randomBytes(32)));
  return {
    paymentId: inputs.paymentId,
    tweak: inputs.tweak,
    secret: inputs.secretBase,
    recipientHash: inputs.recipientHash,
    burnAddress: getAddress(toHex(randomBytes(20))),
  };
}

/** An open challenge record issued at `issuedAt` (default 1000) for 300 s, with `overrides` applied. */
export function buildChallengeRecord(overrides: Partial<ChallengeRecord> = {}): ChallengeRecord {
  const issuedAt = overrides.issuedAt ?? 1000;
  const burn = overrides.burn ?? buildBurnSecret(toHex(randomBytes(32)), 31337, getAddress(toHex(randomBytes(20))));
  return {
    challengeNonce: toHex(randomBytes(32)),
    protocol: "zerc20-v2",
    chainId: 31337,
    asset: "0x1111111111111111111111111111111111111111",
    payTo: burn.burnAddress,
    amount: 1010n,
    expiresAt: issuedAt + 300,
    helper: undefined,
    deadline: undefined,
    fee: { amount: 10n, bps: 100 },
    quote: { amount: 1010n, fee: 10n, payout: 1000n, extraFee: { amount: 10n, bps: 100 } },
    issuedAt,
    burn,
    ...overrides,
  };
}
