import { describe, expect, it } from "vitest";
import { hashDomain, parseEventLogs, type Address } from "viem";
import { zerc20TokenAbi } from "@svc/scheme";
import { expectRevert } from "./testing/expectRevert.js";
import { hashChainStep, MAX_ZERC20_VALUE } from "./testing/hashChainStep.js";
import { signPermit } from "./testing/signPermit.js";
import { useLocalChain } from "./testing/useLocalChain.js";

const chain = useLocalChain();

async function tokenState(): Promise<{ index: bigint; hashChain: bigint }> {
  const { publicClient, deployment } = chain();
  const [index, hashChain] = await Promise.all([
    publicClient.readContract({ address: deployment.token, abi: zerc20TokenAbi, functionName: "index" }),
    publicClient.readContract({ address: deployment.token, abi: zerc20TokenAbi, functionName: "hashChain" }),
  ]);
  return { index, hashChain };
}

function balanceOf(account: Address): Promise<bigint> {
  const { publicClient, deployment } = chain();
  return publicClient.readContract({ address: deployment.token, abi: zerc20TokenAbi, functionName: "balanceOf", args: [account] });
}

describe("FixtureZErc20", () => {
  it("has the fixture metadata and 18 decimals", async () => {
    const { publicClient, deployment } = chain();
    const read = <Name extends "name" | "symbol" | "decimals">(functionName: Name) =>
      publicClient.readContract({ address: deployment.token, abi: zerc20TokenAbi, functionName });
    expect([await read("name"), await read("symbol"), await read("decimals")]).toEqual(["Fixture zERC20", "zFIX", 18]);
  });

  it("indexes the deployment's two mints into the hash chain from zero", async () => {
    const { deployment, accounts } = chain();
    const afterPayer = hashChainStep(0n, accounts.payer.address, deployment.payerBalance);
    const afterPayer2 = hashChainStep(afterPayer, accounts.payer2.address, deployment.payerBalance);
    expect(await tokenState()).toEqual({ index: 2n, hashChain: afterPayer2 });
  });

  it("emits IndexedTransfer after Transfer and advances index and hash chain by the TS formula", async () => {
    const { deployment, accounts, wallet, mined } = chain();
    const before = await tokenState();
    const value = 1234n * 10n ** 15n;
    const receipt = await mined(
      wallet("payer").writeContract({
        address: deployment.token,
        abi: zerc20TokenAbi,
        functionName: "transfer",
        args: [accounts.treasury.address, value],
      }),
    );

    const events = parseEventLogs({ abi: zerc20TokenAbi, logs: receipt.logs });
    expect(events.map((event) => event.eventName)).toEqual(["Transfer", "IndexedTransfer"]);
    const [transfer, indexed] = events;
    expect(transfer?.args).toEqual({ from: accounts.payer.address, to: accounts.treasury.address, value });
    expect(indexed?.args).toEqual({
      index: before.index,
      from: accounts.payer.address,
      to: accounts.treasury.address,
      value,
    });
    expect(await tokenState()).toEqual({
      index: before.index + 1n,
      hashChain: hashChainStep(before.hashChain, accounts.treasury.address, value),
    });
  });

  it("indexes transferFrom with the owner as `from` and the hash chain ignoring `from`", async () => {
    const { deployment, accounts, wallet, mined } = chain();
    const value = 7n;
    await mined(
      wallet("payer").writeContract({
        address: deployment.token,
        abi: zerc20TokenAbi,
        functionName: "approve",
        args: [accounts.relayer.address, value],
      }),
    );
    const before = await tokenState();
    const receipt = await mined(
      wallet("relayer").writeContract({
        address: deployment.token,
        abi: zerc20TokenAbi,
        functionName: "transferFrom",
        args: [accounts.payer.address, accounts.treasury.address, value],
      }),
    );
    const [indexed] = parseEventLogs({ abi: zerc20TokenAbi, logs: receipt.logs, eventName: "IndexedTransfer" });
    expect(indexed?.args).toEqual({ index: before.index, from: accounts.payer.address, to: accounts.treasury.address, value });
    expect((await tokenState()).hashChain).toBe(hashChainStep(before.hashChain, accounts.treasury.address, value));
  });

  it("accepts a value of exactly 2^248-1 and reverts ValueTooLarge above it, on mint and on transfer", async () => {
    const { deployment, accounts, wallet, mined } = chain();
    const mint = (value: bigint) =>
      wallet("deployer").writeContract({
        address: deployment.token,
        abi: zerc20TokenAbi,
        functionName: "mint",
        args: [accounts.treasury.address, value],
      });
    const tooLarge = await expectRevert(mint(MAX_ZERC20_VALUE + 1n), "ValueTooLarge");
    expect(tooLarge.args).toEqual([MAX_ZERC20_VALUE + 1n]);

    await mined(mint(MAX_ZERC20_VALUE));
    expect(await balanceOf(accounts.treasury.address)).toBe(MAX_ZERC20_VALUE);

    await expectRevert(
      wallet("treasury").writeContract({
        address: deployment.token,
        abi: zerc20TokenAbi,
        functionName: "transfer",
        args: [accounts.payer.address, MAX_ZERC20_VALUE + 1n],
      }),
      "ValueTooLarge",
    );
  });

  it('applies an EIP-2612 permit signed over the domain {name(), "1"}', async () => {
    const current = chain();
    const { deployment, accounts, publicClient, wallet, mined } = current;
    const value = 42n * 10n ** 18n;
    const permit = await signPermit(current, {
      owner: accounts.payer.privateKey,
      token: deployment.token,
      spender: deployment.permitBurner,
      value,
    });
    await mined(
      wallet("relayer").writeContract({
        address: deployment.token,
        abi: zerc20TokenAbi,
        functionName: "permit",
        args: [accounts.payer.address, deployment.permitBurner, value, permit.deadline, permit.v, permit.r, permit.s],
      }),
    );
    const [allowance, nonce, separator] = await Promise.all([
      publicClient.readContract({
        address: deployment.token,
        abi: zerc20TokenAbi,
        functionName: "allowance",
        args: [accounts.payer.address, deployment.permitBurner],
      }),
      publicClient.readContract({
        address: deployment.token,
        abi: zerc20TokenAbi,
        functionName: "nonces",
        args: [accounts.payer.address],
      }),
      publicClient.readContract({ address: deployment.token, abi: zerc20TokenAbi, functionName: "DOMAIN_SEPARATOR" }),
    ]);
    expect({ allowance, nonce }).toEqual({ allowance: value, nonce: 1n });
    expect(separator).toBe(
      hashDomain({
        domain: { name: "Fixture zERC20", version: "1", chainId: BigInt(deployment.chainId), verifyingContract: deployment.token },
        types: {
          EIP712Domain: [
            { name: "name", type: "string" },
            { name: "version", type: "string" },
            { name: "chainId", type: "uint256" },
            { name: "verifyingContract", type: "address" },
          ],
        },
      }),
    );
  });

  it("lets only the minter mint and only the verifier teleport", async () => {
    const { deployment, accounts, wallet } = chain();
    const minted = await expectRevert(
      wallet("payer").writeContract({
        address: deployment.token,
        abi: zerc20TokenAbi,
        functionName: "mint",
        args: [accounts.payer.address, 1n],
      }),
      "NotMinter",
    );
    expect(minted.args).toEqual([accounts.payer.address]);
    const teleported = await expectRevert(
      wallet("deployer").writeContract({
        address: deployment.token,
        abi: zerc20TokenAbi,
        functionName: "teleport",
        args: [accounts.payer.address, 1n],
      }),
      "NotVerifier",
    );
    expect(teleported.args).toEqual([accounts.deployer.address]);
  });

  it("lets only the owner change minter and verifier", async () => {
    const { deployment, accounts, wallet } = chain();
    await expectRevert(
      wallet("payer").writeContract({
        address: deployment.token,
        abi: zerc20TokenAbi,
        functionName: "setVerifier",
        args: [accounts.payer.address],
      }),
      "OwnableUnauthorizedAccount",
    );
  });
});
