/**
 * One key, two instances, one PostgreSQL: sends from both against a real anvil all land with consecutive
 * nonces, a refused send leaves no gap, and a transaction sent with the key outside the facilitator is
 * covered by the chain's pending count. With both instances' monitors running, a drop of the lowest nonce
 * (anvil drops its successors with it) is re-sent by whichever instance sent each transaction, and no nonce is
 * ever signed by both.
 */
import { devAccounts, startAnvil, waitFor, type StartAnvilReturnType } from "@svc/anvil-fixtures";
import { startPostgres, type RunningPostgres } from "@svc/anvil-fixtures/postgres";
import { openTestPool } from "../testing/openTestPool.js";
import { createPublicClient, http, type Hex, type PublicClient, type TransactionSerializable } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStorage } from "../storage/openPostgresStorage.js";
import { migratePostgres } from "../storage/postgresMigrations.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";
import { createSerialSender, type EstimatedCall } from "./createSerialSender.js";
import { createSharedKeySender } from "./createSharedKeySender.js";
import type { MonitorEvent } from "./createTransactionMonitor.js";

let anvil: StartAnvilReturnType;
let server: RunningPostgres;
let client: PublicClient;
let call: EstimatedCall;
let instances: FacilitatorStorage[] = [];

beforeAll(async () => {
  [anvil, server] = await Promise.all([startAnvil(), startPostgres()]);
  client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl, { batch: { wait: 0 }, retryCount: 0 }), pollingInterval: 50 });
  const fees = await client.estimateFeesPerGas();
  call = { to: devAccounts().payer.address, data: "0x", gas: 21_000n, ...fees };
  const url = await server.createDatabase();
  const pool = openTestPool(url);
  await migratePostgres(pool);
  await pool.end();
  instances = [await openPostgresStorage({ url }), await openPostgresStorage({ url })];
});

afterAll(async () => {
  for (const instance of instances) await instance.close();
  await Promise.all([anvil?.stop(), server?.stop()]);
});

async function fundedAccount(index: number) {
  const account = privateKeyToAccount(`0x${(0x5a4edn + BigInt(index)).toString(16).padStart(64, "0")}` as Hex);
  await client.request({ method: "anvil_setBalance" as never, params: [account.address, "0x56bc75e2d63100000"] as never });
  return account;
}

async function minedNonces(hashes: readonly Hex[]): Promise<number[]> {
  const nonces = await Promise.all(
    hashes.map(async (hash) => {
      const receipt = await client.waitForTransactionReceipt({ hash, timeout: 10_000, pollingInterval: 50 });
      expect(receipt.status).toBe("success");
      return (await client.getTransaction({ hash })).nonce;
    }),
  );
  return nonces.sort((x, y) => x - y);
}

describe("shared-key sender", () => {
  it("sends from two instances on one key all land with consecutive nonces", async () => {
    const account = await fundedAccount(1);
    const [a, b] = instances.map((storage) => createSharedKeySender({ client, chain: foundry, account, nonces: storage.relayNonces }));
    const hashes = await Promise.all(Array.from({ length: 24 }, (_, index) => (index % 2 === 0 ? a! : b!).send(call)));
    expect(await minedNonces(hashes)).toEqual(Array.from({ length: 24 }, (_, index) => index));
  });

  it("a send refused before its broadcast leaves no gap for the other instance's next send", async () => {
    const account = await fundedAccount(2);
    const [a, b] = instances.map((storage) => createSharedKeySender({ client, chain: foundry, account, nonces: storage.relayNonces }));
    const first = await a!.send(call);
    await expect(a!.send(call, { beforeBroadcast: async () => Promise.reject(new Error("journal write failed")) })).rejects.toThrow("journal write failed");
    const next = await b!.send(call);
    expect(await minedNonces([first, next])).toEqual([0, 1]);
  });

  it("a transaction the key sent elsewhere is covered by the chain's pending count", async () => {
    const account = await fundedAccount(3);
    const a = createSharedKeySender({ client, chain: foundry, account, nonces: instances[0]!.relayNonces });
    const first = await a.send(call);
    const outside = await createSerialSender({ client, chain: foundry, account }).send(call);
    const after = await a.send(call);
    expect(await minedNonces([first, outside, after])).toEqual([0, 1, 2]);
  });

  it("with both monitors on, a dropped nonce is re-sent by the instance that sent it, and no nonce is signed by both", async () => {
    const account = await fundedAccount(4);
    const signed: number[][] = [[], []];
    const events: MonitorEvent[] = [];
    const [a, b] = instances.map((storage, index) => {
      // Each instance signs with its own view of the key, so the nonces each one signed can be told apart.
      const counted = {
        address: account.address,
        signTransaction: (transaction: TransactionSerializable) => {
          signed[index]?.push(transaction.nonce ?? -1);
          return account.signTransaction(transaction);
        },
      } as unknown as typeof account;
      return createSharedKeySender({
        client,
        chain: foundry,
        account: counted,
        nonces: storage.relayNonces,
        monitor: { role: "relayer", policy: { replaceAfterMs: 60_000, intervalMs: 100 }, onEvent: (event) => events.push(event) },
      });
    });
    await client.request({ method: "evm_setAutomine" as never, params: [false] as never });
    a!.monitor.start();
    b!.monitor.start();
    try {
      const hashes = await Promise.all(Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? a! : b!).send(call)));
      const first = (await Promise.all(hashes.map(async (hash) => ({ hash, nonce: (await client.getTransaction({ hash })).nonce })))).find(
        (sent) => sent.nonce === 0,
      );
      await client.request({ method: "anvil_dropTransaction" as never, params: [first?.hash] as never });
      expect(await client.getTransactionCount({ address: account.address, blockTag: "pending" })).toBe(0);
      await waitFor(async () => (await client.getTransactionCount({ address: account.address, blockTag: "pending" })) === 12, {
        what: "every dropped nonce re-sent",
        timeoutMs: 15_000,
        intervalMs: 50,
      });
      await client.request({ method: "evm_mine" as never, params: [] as never });
      expect(await minedNonces(hashes)).toEqual(Array.from({ length: 12 }, (_, index) => index));
      expect(events.filter((event) => event.reason === "dropped").map((event) => event.nonce)).toContain(0);
      expect(events.filter((event) => event.reason === "gap")).toEqual([]);
      const byA = new Set(signed[0]);
      expect(signed[1]?.filter((nonce) => byA.has(nonce))).toEqual([]);
    } finally {
      await Promise.all([a!.monitor.stop(), b!.monitor.stop()]);
      await client.request({ method: "evm_setAutomine" as never, params: [true] as never });
    }
  });
});
