/**
 * The transfer scanner on a real anvil chain with the real token: it finds every transfer to a burn address
 * from the challenge's issuance on, including one sent before the accepted burn, across several getLogs
 * chunks, and nothing from before the issuance; a later lookup reads only the new blocks (with the re-read
 * tail), an event read twice is listed once, and `retain` drops what no payment needs. Its decoy candidates are
 * other addresses' transfers of the burn address's values only.
 */
import { zerc20TokenAbi } from "@svc/scheme";
import { createPublicClient, createWalletClient, custom, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../testing/localFacilitator.js";
import { createTransferScanner, ISSUANCE_SLACK_SECONDS, REORG_DEPTH_BLOCKS } from "./createTransferScanner.js";

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.close();
});

async function transfer(to: Address, value: bigint): Promise<bigint> {
  const wallet = createWalletClient({
    chain: foundry,
    transport: http(stack.deployment.rpcUrl),
    account: privateKeyToAccount(stack.deployment.accounts.payer.privateKey),
  });
  const hash = await wallet.writeContract({ address: stack.deployment.token, abi: zerc20TokenAbi, functionName: "transfer", args: [to, value] });
  return (await stack.client.waitForTransactionReceipt({ hash })).blockNumber;
}

const treasury = () => stack.deployment.accounts.treasury.address;

const mine = (blocks: number) => stack.client.request({ method: "anvil_mine" as never, params: [`0x${blocks.toString(16)}`] as never });

describe("createTransferScanner", () => {
  it("finds the burn address's transfers from its issuance on, in and around the burn, and lists same-value decoys apart", async () => {
    const burnAddress = "0x00000000000000000000000000000000000b0001" as Address;
    const someoneElse = "0x00000000000000000000000000000000000e1001" as Address;
    const otherValue = "0x00000000000000000000000000000000000e1002" as Address;
    // A transfer to the same address long before the challenge existed stays out of the scan.
    const beforeIssuance = await transfer(burnAddress, 1n);
    await stack.client.request({ method: "evm_increaseTime" as never, params: [Number(ISSUANCE_SLACK_SECONDS) * 3] as never });
    await mine(1);
    const issuedAt = Number((await stack.client.getBlock()).timestamp);
    await mine(5);
    await transfer(burnAddress, 10n); // paid in parts: this part precedes the accepted burn
    await transfer(someoneElse, 30n);
    await transfer(otherValue, 20n);
    await mine(7);
    const burnBlock = await transfer(burnAddress, 30n);
    await mine(3);
    await transfer(burnAddress, 40n); // after the burn, still the burn address's
    const target = {
      challenge: { challengeNonce: `0x${"ab".repeat(32)}` as Hex, payTo: burnAddress, issuedAt },
      burnBlockNumber: burnBlock.toString(),
      treasury: treasury(),
    };

    for (const chunkBlocks of [3n, 2_000n]) {
      // The decoy window reaches back from the burn, so it holds the transfer to someoneElse whatever the chain's length.
      const scanner = createTransferScanner({ client: stack.client, token: stack.deployment.token, chunkBlocks, draw: (below) => below - 1 });
      const { transfers, others } = await scanner.transfersTo(target);
      expect(transfers.map((found) => found.value)).toEqual([10n, 30n, 40n]);
      expect(transfers.every((found, index) => index === 0 || found.event_index > transfers[index - 1]!.event_index)).toBe(true);
      expect(others.map((found) => [found.to.toLowerCase(), found.value])).toContainEqual([someoneElse.toLowerCase(), 30n]);
      expect(others.every((found) => found.to.toLowerCase() !== burnAddress.toLowerCase() && [10n, 30n, 40n].includes(found.value))).toBe(true);
      expect(others.some((found) => found.to.toLowerCase() === otherValue.toLowerCase())).toBe(false);
    }

    // Without decoys (our own follower answers): the same transfers, no candidates, and nothing read before the
    // payment's own start.
    const fromBlocks: bigint[] = [];
    const client = new Proxy(stack.client, {
      get: (real, property, receiver) =>
        property === "getContractEvents"
          ? (args: { fromBlock: bigint }) => {
              fromBlocks.push(args.fromBlock);
              return real.getContractEvents(args as never);
            }
          : Reflect.get(real, property, receiver),
    });
    const plain = createTransferScanner({ client, token: stack.deployment.token, draw: (below) => below - 1, decoys: false });
    const { transfers, others } = await plain.transfersTo(target);
    expect(transfers.map((found) => found.value)).toEqual([10n, 30n, 40n]);
    expect(others).toEqual([]);
    expect(fromBlocks.length).toBeGreaterThan(0);
    expect(fromBlocks.every((block) => block > beforeIssuance)).toBe(true);
  });

  it("reads only new blocks on a later lookup, never lists a re-read event twice, and retain drops old blocks", async () => {
    const burnAddress = "0x00000000000000000000000000000000000b0002" as Address;
    const laterAddress = "0x00000000000000000000000000000000000b0003" as Address;
    // Every eth_getLogs range the scanner asks for, through a transport that forwards to the real anvil.
    const ranges: [bigint, bigint][] = [];
    const client = createPublicClient({
      chain: foundry,
      cacheTime: 0,
      transport: custom({
        request: async ({ method, params }) => {
          if (method === "eth_getLogs") {
            const [filter] = params as [{ fromBlock: Hex; toBlock: Hex }];
            ranges.push([BigInt(filter.fromBlock), BigInt(filter.toBlock)]);
          }
          return stack.client.request({ method, params } as never);
        },
      }),
    });
    await stack.client.request({ method: "evm_increaseTime" as never, params: [Number(ISSUANCE_SLACK_SECONDS) * 3] as never });
    await mine(1);
    const issuedAt = Number((await stack.client.getBlock()).timestamp);
    const burnBlock = await transfer(burnAddress, 11n);
    const target = {
      challenge: { challengeNonce: `0x${"cd".repeat(32)}` as Hex, payTo: burnAddress, issuedAt },
      burnBlockNumber: burnBlock.toString(),
      treasury: treasury(),
    };
    // Short decoy windows starting at the burn: the blocks read are the payments' own ranges, as asserted below.
    const scanner = createTransferScanner({ client, token: stack.deployment.token, draw: () => 0, decoyWindowBlocks: 8n });

    expect((await scanner.transfersTo(target)).transfers.map((found) => found.value)).toEqual([11n]);
    const firstHead = await client.getBlockNumber();
    expect(ranges).toHaveLength(1);
    expect(ranges[0]![1]).toBe(firstHead);

    // Nothing new on chain: served from the cache without a single getLogs.
    await scanner.transfersTo(target);
    expect(ranges).toHaveLength(1);

    await mine(30);
    await transfer(burnAddress, 12n);
    const secondHead = await client.getBlockNumber();
    const found = (await scanner.transfersTo(target)).transfers;
    // One request: the re-read tail below the old head and the new blocks, not the payment's whole range again.
    // (The window is younger than the re-read depth here, so the re-read tail is all of it.)
    const tail = firstHead - REORG_DEPTH_BLOCKS + 1n > ranges[0]![0] ? firstHead - REORG_DEPTH_BLOCKS + 1n : ranges[0]![0];
    expect(tail).toBeLessThanOrEqual(burnBlock);
    expect(ranges.slice(1)).toEqual([[tail, secondHead]]);
    // The burn's block was read twice (its first read and the overlap) and is still listed once.
    expect(found.map((transfer) => transfer.value)).toEqual([11n, 12n]);
    expect(new Set(found.map((transfer) => transfer.event_index)).size).toBe(2);

    // A payment issued after the first one shares the cache; retaining only it drops the older blocks.
    await stack.client.request({ method: "evm_increaseTime" as never, params: [Number(ISSUANCE_SLACK_SECONDS) * 3] as never });
    await mine(1);
    const laterIssuedAt = Number((await stack.client.getBlock()).timestamp);
    const laterBurn = await transfer(laterAddress, 13n);
    const later = {
      challenge: { challengeNonce: `0x${"ef".repeat(32)}` as Hex, payTo: laterAddress, issuedAt: laterIssuedAt },
      burnBlockNumber: laterBurn.toString(),
      treasury: treasury(),
    };
    expect((await scanner.transfersTo(later)).transfers.map((transfer) => transfer.value)).toEqual([13n]);
    const before = ranges.length;
    await scanner.retain?.([later]);
    // The first payment's blocks are gone: looking it up again fetches exactly the gap before the later payment's start.
    expect((await scanner.transfersTo(target)).transfers.map((transfer) => transfer.value)).toEqual([11n, 12n]);
    const gap = ranges.slice(before);
    expect(gap).toHaveLength(1);
    expect(gap[0]![0]).toBe(ranges[0]![0]);
    expect(gap[0]![1]).toBeLessThan(laterBurn);
    // Without retain the same lookup is served from the cache.
    const kept = ranges.length;
    await scanner.transfersTo(target);
    expect(ranges.length).toBe(kept);
  });

  it("forgets a transfer a reorg removed while the chain kept its height", async () => {
    const burnAddress = "0x00000000000000000000000000000000000b0004" as Address;
    await stack.client.request({ method: "evm_increaseTime" as never, params: [Number(ISSUANCE_SLACK_SECONDS) * 3] as never });
    await mine(1);
    const issuedAt = Number((await stack.client.getBlock()).timestamp);
    const earlier = await transfer(burnAddress, 21n);
    const burnBlock = await transfer(burnAddress, 22n);
    const target = {
      challenge: { challengeNonce: `0x${"a1".repeat(32)}` as Hex, payTo: burnAddress, issuedAt },
      burnBlockNumber: earlier.toString(),
      treasury: treasury(),
    };
    const scanner = createTransferScanner({ client: stack.client, token: stack.deployment.token });
    expect((await scanner.transfersTo(target)).transfers.map((found) => found.value)).toEqual([21n, 22n]);

    // The burn's block is replaced by an empty one: the head has the same number and another hash.
    const height = await stack.client.getBlockNumber({ cacheTime: 0 });
    expect(height).toBe(burnBlock);
    await stack.client.request({ method: "anvil_reorg" as never, params: [1, []] as never });
    expect(await stack.client.getBlockNumber({ cacheTime: 0 })).toBe(height);
    expect((await scanner.transfersTo(target)).transfers.map((found) => found.value)).toEqual([21n]);
  });
});
