/**
 * `createChainFinality` against a real anvil that mines only when told: a depth rule counts blocks from the
 * head, the tag rule asks the node, `confirmed` answers once the head is deep enough and not before.
 */
import { startAnvil, type StartAnvilReturnType } from "@svc/anvil-fixtures";
import { createPublicClient, http, type PublicClient } from "viem";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainFinality, describeFinality, finalityRule } from "./chainFinality.js";

let anvil: StartAnvilReturnType;
let client: PublicClient;

beforeAll(async () => {
  anvil = await startAnvil();
  client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl, { retryCount: 0 }) }) as PublicClient;
});

afterAll(async () => {
  await anvil?.stop();
});

const mine = (blocks: number) => client.request({ method: "anvil_mine" as never, params: [`0x${blocks.toString(16)}`] as never });

describe("createChainFinality", () => {
  it("takes the block `depth - 1` below the head as final under a depth rule, and the node's finalized block under the tag", async () => {
    await mine(80);
    const head = await client.getBlockNumber({ cacheTime: 0 });
    expect(await createChainFinality(client, { confirmations: 1, finality: { depth: 1 } }).finalBlock()).toBe(head);
    expect(await createChainFinality(client, { confirmations: 1, finality: { depth: 5 } }).finalBlock()).toBe(head - 4n);
    // anvil's `finalized` trails its head by two epochs of 32 slots.
    expect(await createChainFinality(client, { confirmations: 1, finality: { tag: "finalized" } }).finalBlock()).toBe(head - 64n);
  });

  it("reads state at the final block only when it is not the head", async () => {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    expect(await createChainFinality(client, { confirmations: 1, finality: { depth: 1 } }).atFinalBlock()).toEqual({});
    expect(await createChainFinality(client, { confirmations: 2, finality: { depth: 3 } }).atFinalBlock()).toEqual({ blockNumber: head - 2n });
  });

  it("confirms a block once it is `confirmations` deep, and says no at the polling bound before", async () => {
    const finality = createChainFinality(client, { confirmations: 3, finality: { depth: 3 } });
    const head = await client.getBlockNumber({ cacheTime: 0 });
    expect(await finality.confirmed(head, { timeoutMs: 0 })).toBe(false);
    await mine(1);
    expect(await finality.confirmed(head, { timeoutMs: 0 })).toBe(false);
    const waiting = finality.confirmed(head, { timeoutMs: 10_000, intervalMs: 20 });
    await mine(1);
    expect(await waiting).toBe(true);
    // One confirmation is inclusion: answered without a read, whatever the block.
    expect(await createChainFinality(client, { confirmations: 1, finality: { depth: 1 } }).confirmed(head + 1000n, { timeoutMs: 0 })).toBe(true);
  });
});

describe("finalityRule", () => {
  it("uses finality_depth when set, confirmations on the local chain, the finalized tag elsewhere", () => {
    expect(finalityRule({ chain_id: 8453, confirmations: 1, finality_depth: 12 })).toEqual({ depth: 12 });
    expect(finalityRule({ chain_id: 31337, confirmations: 2 })).toEqual({ depth: 2 });
    expect(finalityRule({ chain_id: 1, confirmations: 2 })).toEqual({ tag: "finalized" });
    expect(describeFinality({ depth: 3 })).toBe("3 blocks");
    expect(describeFinality({ tag: "finalized" })).toBe("finalized");
  });
});
