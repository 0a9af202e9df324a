/**
 * FeeSplitter arithmetic. Rounding rule under test: `fee = balance * bps / 10000` rounded DOWN and the payee
 * gets `balance - fee`, so any remainder of the division goes to the payee and the two legs always add up
 * to the whole balance. With the deployed 100 bps: 199 units give fee 1 (1.99 rounded down), payee 198;
 * 99 units give fee 0, payee 99.
 */
import { describe, expect, it } from "vitest";
import { parseEventLogs, zeroAddress, type Address, type Hash } from "viem";
import { feeSplitterAbi, zerc20TokenAbi } from "@svc/scheme";
import { fixtureTokenAdminAbi } from "./fixtureAdminAbis.js";
import { expectRevert } from "./testing/expectRevert.js";
import { useLocalChain } from "./testing/useLocalChain.js";

const chain = useLocalChain();

function balanceOf(account: Address): Promise<bigint> {
  const { publicClient, deployment } = chain();
  return publicClient.readContract({ address: deployment.token, abi: zerc20TokenAbi, functionName: "balanceOf", args: [account] });
}

/** Funds a splitter the way the verifier's mint does: tokens simply arrive at its address. */
async function fund(splitter: Address, value: bigint): Promise<void> {
  const { deployment, wallet, mined } = chain();
  await mined(
    wallet("deployer").writeContract({
      address: deployment.token,
      abi: fixtureTokenAdminAbi,
      functionName: "mint",
      args: [splitter, value],
    }),
  );
}

function distribute(splitter: Address): Promise<Hash> {
  const { deployment, wallet } = chain();
  // Anyone may distribute: a third party (payer2) calls it.
  return wallet("payer2").writeContract({
    address: splitter,
    abi: feeSplitterAbi,
    functionName: "distribute",
    args: [deployment.token],
  });
}

function deploySplitter(payee: Address, feeRecipient: Address, bps: number): Promise<Hash> {
  const { artifacts, wallet } = chain();
  return wallet("deployer").deployContract({
    abi: artifacts.FeeSplitter.abi,
    bytecode: artifacts.FeeSplitter.bytecode,
    args: [payee, feeRecipient, bps],
  });
}

describe("FeeSplitter", () => {
  it("is deployed with the payee, fee recipient and 100 bps", async () => {
    const { publicClient, deployment } = chain();
    const read = <Name extends "payee" | "feeRecipient" | "bps">(functionName: Name) =>
      publicClient.readContract({ address: deployment.feeSplitter, abi: feeSplitterAbi, functionName });
    expect([await read("payee"), await read("feeRecipient"), await read("bps")]).toEqual([deployment.feeSplit.payee, deployment.feeSplit.feeRecipient, 100]);
  });

  it.each([
    // [balance, fee, payee]: fee = floor(balance * 100 / 10000), payee = balance - fee
    [199n, 1n, 198n],
    [99n, 0n, 99n],
    [1_000_000n, 10_000n, 990_000n],
    [10n ** 24n + 12_345n, 10n ** 22n + 123n, 10n ** 24n + 12_345n - (10n ** 22n + 123n)],
  ])("splits a balance of %s into fee %s and payee %s", async (balance, fee, payeeAmount) => {
    const { deployment, mined } = chain();
    const { payee, feeRecipient } = deployment.feeSplit;
    const [payeeBefore, feeBefore] = [await balanceOf(payee), await balanceOf(feeRecipient)];
    await fund(deployment.feeSplitter, balance);

    const receipt = await mined(distribute(deployment.feeSplitter));

    expect(await balanceOf(payee)).toBe(payeeBefore + payeeAmount);
    expect(await balanceOf(feeRecipient)).toBe(feeBefore + fee);
    expect(await balanceOf(deployment.feeSplitter)).toBe(0n);
    const [distributed] = parseEventLogs({ abi: feeSplitterAbi, logs: receipt.logs, eventName: "Distributed" });
    expect(distributed?.args).toEqual({ token: deployment.token, payeeAmount, feeAmount: fee });
  });

  it("reverts NothingToDistribute on a zero balance", async () => {
    await expectRevert(distribute(chain().deployment.feeSplitter), "NothingToDistribute");
  });

  it("gives everything to the fee recipient at 10000 bps", async () => {
    const { accounts, mined } = chain();
    const receipt = await mined(deploySplitter(accounts.payee.address, accounts.treasury.address, 10_000));
    const splitter = receipt.contractAddress;
    if (splitter === null || splitter === undefined) return expect.fail("no contract deployed");
    await fund(splitter, 12_345n);
    const distributed = await mined(distribute(splitter));
    const [event] = parseEventLogs({ abi: feeSplitterAbi, logs: distributed.logs, eventName: "Distributed" });
    expect(event?.args.payeeAmount).toBe(0n);
    expect(event?.args.feeAmount).toBe(12_345n);
    expect(await balanceOf(accounts.treasury.address)).toBe(12_345n);
  });

  it.each([0, 10_001])("refuses bps %s with InvalidBps", async (bps) => {
    const { accounts } = chain();
    const invalid = await expectRevert(deploySplitter(accounts.payee.address, accounts.feeRecipient.address, bps), "InvalidBps");
    expect(invalid.args).toEqual([BigInt(bps)]);
  });

  it("refuses zero addresses with ZeroAddress", async () => {
    const { accounts } = chain();
    await expectRevert(deploySplitter(zeroAddress, accounts.feeRecipient.address, 100), "ZeroAddress");
    await expectRevert(deploySplitter(accounts.payee.address, zeroAddress, 100), "ZeroAddress");
  });
});
