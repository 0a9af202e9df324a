import {
  addressToRecipient,
  decodeGroth16Proof,
  deriveBurnAddress,
  FIXTURE_PROVER_PRIVATE_KEY,
  generalRecipientHash,
  merkleRootFromPath,
  recoverFixtureSigner,
  zerc20Protocol,
  zeroHashes,
  type ProtocolVersion,
} from "@svc/scheme";
import { getAddress, hexToBigInt, size } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { FalseWithdrawStatementError, FixtureProverRefusedError } from "./errors.js";
import { createFixtureProver } from "./createFixtureProver.js";
import type { WithdrawProofInputs } from "./proverPort.js";

const recipient = { chainId: 31337n, recipient: addressToRecipient("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"), tweak: `0x${"07".repeat(32)}` as const };
const recipientHash = generalRecipientHash(recipient);
const siblings = zeroHashes().slice(0, 40);
const payer = getAddress("0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc");
const prover = createFixtureProver({ profile: "local", chainId: 31337, deciderUrl: "http://127.0.0.1:1" });

function statementFor(version: ProtocolVersion): WithdrawProofInputs {
  const protocol = zerc20Protocol(version);
  const { secret, burnAddress } = deriveBurnAddress(protocol, hexToBigInt(recipientHash), 42n);
  const root = merkleRootFromPath(protocol.transferLeaf({ from: payer, to: burnAddress, value: 500n }), 0n, siblings);
  return {
    protocol: version,
    root,
    rootIndex: 1n,
    recipient,
    recipientHash,
    burnAddress,
    secret,
    transfers: [{ leafIndex: 0n, from: payer, value: 500n, siblings }],
    value: 500n,
  };
}

describe("createFixtureProver", () => {
  it("exists only under profile local on chain 31337", () => {
    expect(() => createFixtureProver({ profile: "testnet", chainId: 31337, deciderUrl: "http://x" })).toThrow(FixtureProverRefusedError);
    expect(() => createFixtureProver({ profile: undefined, chainId: 31337, deciderUrl: "http://x" })).toThrow(FixtureProverRefusedError);
    expect(() => createFixtureProver({ profile: "local", chainId: 1, deciderUrl: "http://x" })).toThrow(FixtureProverRefusedError);
  });
});

describe.each(["zerc20-v1", "zerc20-v2"] as const)("createFixtureProver under %s", (version) => {
  const statement = statementFor(version);

  it("signs a true single-transfer statement with the fixture key, in the 352-byte Groth16 encoding", async () => {
    const proof = await prover.proveSingle(statement);
    expect(size(proof)).toBe(352);
    const { a, b, publicInputs } = decodeGroth16Proof(proof);
    expect(publicInputs).toEqual([statement.root, hexToBigInt(recipientHash), 500n]);
    const signer = await recoverFixtureSigner("withdraw_single", 31337n, publicInputs, [a[0], a[1], b[0][0]]);
    expect(signer).toBe(privateKeyToAddress(FIXTURE_PROVER_PRIVATE_KEY));
  });

  it("refuses the other version's statement", async () => {
    const other = version === "zerc20-v1" ? "zerc20-v2" : "zerc20-v1";
    await expect(prover.proveSingle({ ...statement, protocol: other })).rejects.toThrow(FalseWithdrawStatementError);
  });

  it.each([
    ["a wrong value", { value: 501n }],
    ["a wrong root", { root: 1n }],
    ["a wrong secret", { secret: 1n }],
    ["another burn address", { burnAddress: getAddress("0x000000000000000000000000000000000000dead") }],
    ["a wrong recipient", { recipientHash: `0x01${"00".repeat(31)}` as const }],
    ["a path that does not lead to the root", { transfers: [{ leafIndex: 1n, from: payer, value: 500n, siblings }] }],
  ])("refuses to prove a statement with %s", async (_case, change) => {
    await expect(prover.proveSingle({ ...statement, ...change })).rejects.toThrow(FalseWithdrawStatementError);
  });

  it("binds the sender into the leaf only under v2", async () => {
    const otherSender = { ...statement, transfers: [{ leafIndex: 0n, from: getAddress("0x00000000000000000000000000000000000000aa"), value: 500n, siblings }] };
    if (version === "zerc20-v2") await expect(prover.proveSingle(otherSender)).rejects.toThrow(FalseWithdrawStatementError);
    else expect(size(await prover.proveSingle(otherSender))).toBe(352);
  });
});
