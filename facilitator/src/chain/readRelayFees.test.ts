/**
 * `readRelayFees` against a real anvil: the same fees as viem's `estimateFeesPerGas` on the same block, in one
 * round trip where viem needs two.
 */
import { startAnvil, type StartAnvilReturnType } from "@svc/anvil-fixtures";
import { createPublicClient, http, type PublicClient } from "viem";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCountingRpcProxy, type CountingRpcProxy } from "../testing/countingRpcProxy.js";
import { readRelayFees } from "./readRelayFees.js";

let anvil: StartAnvilReturnType;
let proxy: CountingRpcProxy;

beforeAll(async () => {
  anvil = await startAnvil();
  proxy = await startCountingRpcProxy(anvil.rpcUrl);
});

afterAll(async () => {
  await proxy?.close();
  await anvil?.stop();
});

// A fresh client per read, so viem's block-number cache never answers for the node.
const batchingClient = (): PublicClient =>
  createPublicClient({ chain: foundry, transport: http(proxy.url, { batch: { wait: 0 }, retryCount: 0 }) }) as PublicClient;

async function tripsOf(work: () => Promise<unknown>): Promise<string[][]> {
  const from = proxy.trips().length;
  await work();
  return proxy.trips().slice(from);
}

describe("readRelayFees", () => {
  it("equals viem's estimateFeesPerGas on the same block, at several base fees", async () => {
    const client = batchingClient();
    for (const baseFee of [7n, 1_000_000_007n, 123_456_789_012n]) {
      await client.request({ method: "anvil_setNextBlockBaseFeePerGas" as never, params: [`0x${baseFee.toString(16)}`] as never });
      await client.request({ method: "evm_mine" as never });
      const [ours, viems, latest] = await Promise.all([readRelayFees(batchingClient()), client.estimateFeesPerGas(), client.getBlockNumber({ cacheTime: 0 })]);
      expect({ maxFeePerGas: ours.maxFeePerGas, maxPriorityFeePerGas: ours.maxPriorityFeePerGas }).toEqual(viems);
      expect(ours.blockNumber).toBe(latest);
    }
  });

  it("reads block, priority fee and block number in one round trip; viem's estimate takes two", async () => {
    expect(await tripsOf(() => readRelayFees(batchingClient()))).toEqual([["eth_getBlockByNumber", "eth_maxPriorityFeePerGas", "eth_blockNumber"]]);
    expect(await tripsOf(() => batchingClient().estimateFeesPerGas())).toEqual([["eth_getBlockByNumber"], ["eth_maxPriorityFeePerGas"]]);
  });
});
