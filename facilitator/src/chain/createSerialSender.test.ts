/**
 * The relayer queue against a real anvil: concurrent sends get consecutive nonces and all land, signing runs
 * outside the serialised broadcast, and a send that fails (journal hook or node refusal) leaves no nonce gap.
 */
import { devAccounts, startAnvil, type StartAnvilReturnType } from "@svc/anvil-fixtures";
import { createPublicClient, http, type Hex, type PublicClient, type TransactionSerializable } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSerialSender, type EstimatedCall } from "./createSerialSender.js";

let anvil: StartAnvilReturnType;
let client: PublicClient;
let call: EstimatedCall;

beforeAll(async () => {
  anvil = await startAnvil();
  client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl, { batch: { wait: 0 }, retryCount: 0 }), pollingInterval: 50 });
  const fees = await client.estimateFeesPerGas();
  call = { to: devAccounts().payer.address, data: "0x", gas: 21_000n, ...fees };
});

afterAll(async () => {
  await anvil?.stop();
});

/** A fresh key per test, so every test starts at nonce 0 on the shared node; funded by the dev relayer. */
async function fundedAccount(index: number) {
  const key = `0x${(0xa11ce0n + BigInt(index)).toString(16).padStart(64, "0")}` as Hex;
  const account = privateKeyToAccount(key);
  await client.request({ method: "anvil_setBalance" as never, params: [account.address, "0x56bc75e2d63100000"] as never });
  const signedNonces: number[] = [];
  const counted = {
    address: account.address,
    signTransaction: (transaction: TransactionSerializable) => {
      signedNonces.push(transaction.nonce ?? -1);
      return account.signTransaction(transaction);
    },
  };
  return { account: counted as unknown as typeof account, signedNonces };
}

async function minedNonces(hashes: readonly Hex[]): Promise<number[]> {
  const transactions = await Promise.all(
    hashes.map(async (hash) => {
      const receipt = await client.waitForTransactionReceipt({ hash, timeout: 10_000 });
      expect(receipt.status).toBe("success");
      return client.getTransaction({ hash });
    }),
  );
  return transactions.map((transaction) => transaction.nonce).sort((a, b) => a - b);
}

describe("relayer queue", () => {
  it("gives 50 concurrent sends consecutive nonces, all mined, each signed once", async () => {
    const { account, signedNonces } = await fundedAccount(1);
    const queue = createSerialSender({ client, chain: foundry, account });
    await queue.send(call);
    const hashes = await Promise.all(Array.from({ length: 50 }, () => queue.send(call)));
    expect(new Set(hashes).size).toBe(50);
    expect(await minedNonces(hashes)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // Once the queue knows its nonce, each send is signed ahead for the nonce it is broadcast with.
    expect(signedNonces).toEqual(Array.from({ length: 51 }, (_, i) => i));
    expect(await client.getTransactionCount({ address: account.address, blockTag: "pending" })).toBe(51);
  });

  it("50 concurrent sends on a cold queue read the nonce once and collide on none", async () => {
    const { account } = await fundedAccount(5);
    const queue = createSerialSender({ client, chain: foundry, account });
    const hashes = await Promise.all(Array.from({ length: 50 }, () => queue.send(call)));
    expect(await minedNonces(hashes)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it("signs a send while an earlier one is still broadcasting", async () => {
    const { account, signedNonces } = await fundedAccount(2);
    const queue = createSerialSender({ client, chain: foundry, account });
    await queue.send(call);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding: () => void = () => undefined;
    const reachedHook = new Promise<void>((resolve) => (holding = resolve));
    const first = queue.send(call, { beforeBroadcast: async () => (holding(), held) });
    const second = queue.send(call);
    await reachedHook;
    // The first send sits inside the serialised broadcast; the second already holds its signed transaction.
    expect(signedNonces).toEqual([0, 1, 2]);
    release();
    expect(await minedNonces([await first, await second])).toEqual([1, 2]);
    expect(signedNonces).toEqual([0, 1, 2]);
  });

  it("a send whose journal hook fails leaves no gap: the sends behind it take its nonce and land", async () => {
    const { account, signedNonces } = await fundedAccount(3);
    const queue = createSerialSender({ client, chain: foundry, account });
    await queue.send(call);
    const failing = new Error("journal write failed");
    const results = await Promise.allSettled([
      queue.send(call),
      queue.send(call, { beforeBroadcast: () => Promise.reject(failing) }),
      queue.send(call),
      queue.send(call),
    ]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(results[1]).toMatchObject({ reason: failing });
    const hashes = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    expect(await minedNonces(hashes)).toEqual([1, 2, 3]);
    // The two sends behind the failure were signed ahead for nonces 3 and 4 and signed again for 2 and 3.
    expect(signedNonces.slice(-2)).toEqual([2, 3]);
    expect(await queue.send(call).then((hash) => minedNonces([hash]))).toEqual([4]);
  });

  it("a send the node refuses resynchronises the nonce and the next sends land", async () => {
    const { account } = await fundedAccount(4);
    const queue = createSerialSender({ client, chain: foundry, account });
    await queue.send(call);
    // Below the intrinsic 21000 gas of a transfer: anvil refuses it at broadcast.
    const refused = { ...call, gas: 20_000n };
    const results = await Promise.allSettled([queue.send(call), queue.send(refused), queue.send(call)]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const hashes = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    expect(await minedNonces(hashes)).toEqual([1, 2]);
    expect(await client.getTransactionCount({ address: account.address, blockTag: "pending" })).toBe(3);
  });
});
