import {
  addressToRecipient,
  burnAddressFromHash,
  burnAddressHash,
  deriveBurnAddress,
  generalRecipientHash,
  merkleRootFromPath,
  recoverFixtureProofSigner,
  transferLeaf,
  zeroHashes,
  FIXTURE_PROVER_PRIVATE_KEY,
} from "@svc/scheme";
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { FalseWithdrawStatementError, FixtureProverRefusedError } from "./errors.js";
import { createFixtureProver } from "./createFixtureProver.js";
import type { WithdrawProofInputs } from "./proverPort.js";

const recipient = { chainId: 31337n, recipient: addressToRecipient("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"), tweak: `0x${"07".repeat(32)}` as const };
const recipientHash = generalRecipientHash(recipient);
const { secret, burnAddress } = deriveBurnAddress(BigInt(recipientHash), 42n);
const siblings = zeroHashes().slice(0, 40);
const root = merkleRootFromPath(transferLeaf(burnAddress, 500n), 0n, siblings);
const statement: WithdrawProofInputs = {
  root,
  rootIndex: 1n,
  recipient,
  recipientHash,
  burnAddress,
  secret,
  transfers: [{ leafIndex: 0n, value: 500n, siblings }],
  value: 500n,
};
const prover = createFixtureProver({ profile: "local", chainId: 31337, deciderUrl: "http://127.0.0.1:1" });

describe("createFixtureProver", () => {
  it("exists only under profile local on chain 31337", () => {
    expect(() => createFixtureProver({ profile: "testnet", chainId: 31337, deciderUrl: "http://x" })).toThrow(FixtureProverRefusedError);
    expect(() => createFixtureProver({ profile: undefined, chainId: 31337, deciderUrl: "http://x" })).toThrow(FixtureProverRefusedError);
    expect(() => createFixtureProver({ profile: "local", chainId: 1, deciderUrl: "http://x" })).toThrow(FixtureProverRefusedError);
  });

  it("signs a true single-transfer statement with the fixture key", async () => {
    const proof = await prover.proveSingle(statement);
    expect(await recoverFixtureProofSigner("withdraw_single", 31337n, proof)).toBe(privateKeyToAddress(FIXTURE_PROVER_PRIVATE_KEY));
  });

  it.each([
    ["a wrong value", { value: 501n }],
    ["a wrong root", { root: root + 1n }],
    ["a wrong secret", { secret: secret + 1n }],
    ["another burn address", { burnAddress: burnAddressFromHash(burnAddressHash(1n, 2n)) }],
    ["a wrong recipient", { recipientHash: `0x01${"00".repeat(31)}` as const }],
    ["a path that does not lead to the root", { transfers: [{ leafIndex: 1n, value: 500n, siblings }] }],
  ])("refuses to prove a statement with %s", async (_case, change) => {
    await expect(prover.proveSingle({ ...statement, ...change })).rejects.toThrow(FalseWithdrawStatementError);
  });
});
