/**
 * The key sender against a real anvil. Over the embedded adapter's nonce port (one process): concurrent sends
 * get consecutive nonces and all land, a cold key reads the chain's pending count once, the next send is signed
 * while the node is still answering the last one, and a send that fails (journal hook, or node refusal with
 * nothing sent after it) leaves no nonce gap, the next turn reading the pending count again; a refusal that
 * comes back after a later send went out leaves a gap the key's monitor fills at once. One key,
 * two instances, one PostgreSQL: sends from both all land with consecutive nonces, a refused send leaves no
 * gap, and a transaction sent with the key outside the facilitator is covered by the chain's pending count.
 * With both instances' monitors running, a drop of the lowest nonce (anvil drops its successors with it) is
 * re-sent by whichever instance sent each transaction, and no nonce is ever signed by both.
 */
import { countSignedNonces } from "../testing/countingSigner.js";
import { devAccounts, startAnvil, waitFor, type StartAnvilReturnType } from "@svc/anvil-fixtures";
import { startPostgres, type RunningPostgres } from "@svc/anvil-fixtures/postgres";
import { openTestPool } from "../testing/openTestPool.js";
import { createPublicClient, custom, http, type Hex, type PublicClient, type TransactionSerializable } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEmbeddedStorage } from "../storage/openEmbeddedStorage.js";
import { openPostgresStorage } from "../storage/openPostgresStorage.js";
import { migratePostgres } from "../storage/postgresMigrations.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";
import { createKeySender, type EstimatedCall } from "./createKeySender.js";
import type { MonitorEvent } from "./createTransactionMonitor.js";

let anvil: StartAnvilReturnType;
let server: RunningPostgres;
let client: PublicClient;
let call: EstimatedCall;
let embedded: FacilitatorStorage;
let instances: FacilitatorStorage[] = [];

beforeAll(async () => {
  [anvil, server] = await Promise.all([startAnvil(), startPostgres()]);
  client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl, { batch: { wait: 0 }, retryCount: 0 }), pollingInterval: 50 });
  const fees = await client.estimateFeesPerGas();
  call = { to: devAccounts().payer.address, data: "0x", gas: 21_000n, ...fees };
  embedded = await openEmbeddedStorage({ journalPath: null, challenges: { maxOpenChallenges: 10, retentionSeconds: 60 } });
  const url = await server.createDatabase();
  const pool = openTestPool(url);
  await migratePostgres(pool);
  await pool.end();
  instances = [await openPostgresStorage({ url }), await openPostgresStorage({ url })];
});

afterAll(async () => {
  for (const instance of [embedded, ...instances]) await instance?.close();
  await Promise.all([anvil?.stop(), server?.stop()]);
});

/** A fresh funded key (nonce 0 on the shared node): `base` keeps each describe's keys apart. */
async function fundedKey(base: bigint, index: number) {
  const account = privateKeyToAccount(`0x${(base + BigInt(index)).toString(16).padStart(64, "0")}` as Hex);
  await client.request({ method: "anvil_setBalance" as never, params: [account.address, "0x56bc75e2d63100000"] as never });
  return account;
}

/** A fresh funded key whose signer records the nonces it signed, in order. */
async function countedKey(index: number) {
  const account = await fundedKey(0xa11ce0n, index);
  return countSignedNonces(account);
}

/** A client on the same node that counts the nonce reads (`eth_getTransactionCount`) made through it. */
function countingClient() {
  const counter = { nonceReads: 0 };
  const counting = createPublicClient({
    chain: foundry,
    transport: custom({
      request: ({ method, params }) => {
        if (method === "eth_getTransactionCount") counter.nonceReads++;
        return client.request({ method, params } as never);
      },
    }),
    pollingInterval: 50,
  });
  return { client: counting, counter };
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

describe("key sender over the embedded port", () => {
  it("gives 50 concurrent sends consecutive nonces, all mined, each signed once in nonce order", async () => {
    const { account, signedNonces } = await countedKey(1);
    const sender = createKeySender({ client, chain: foundry, account, nonces: embedded.relayNonces });
    await sender.send(call);
    const hashes = await Promise.all(Array.from({ length: 50 }, () => sender.send(call)));
    expect(new Set(hashes).size).toBe(50);
    expect(await minedNonces(hashes)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(signedNonces).toEqual(Array.from({ length: 51 }, (_, i) => i));
    expect(await client.getTransactionCount({ address: account.address, blockTag: "pending" })).toBe(51);
  });

  it("50 concurrent sends on a cold key read the pending nonce once and collide on none", async () => {
    const { account } = await countedKey(2);
    const counting = countingClient();
    const sender = createKeySender({ client: counting.client, chain: foundry, account, nonces: embedded.relayNonces });
    const hashes = await Promise.all(Array.from({ length: 50 }, () => sender.send(call)));
    expect(counting.counter.nonceReads).toBe(1);
    expect(await minedNonces(hashes)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it("a send whose journal hook fails leaves no gap: the sends behind it take its nonce and land", async () => {
    const { account, signedNonces } = await countedKey(3);
    const counting = countingClient();
    const sender = createKeySender({ client: counting.client, chain: foundry, account, nonces: embedded.relayNonces });
    await sender.send(call);
    const failing = new Error("journal write failed");
    const results = await Promise.allSettled([
      sender.send(call),
      sender.send(call, { beforeBroadcast: () => Promise.reject(failing) }),
      sender.send(call),
      sender.send(call),
    ]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(results[1]).toMatchObject({ reason: failing });
    const hashes = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    expect(await minedNonces(hashes)).toEqual([1, 2, 3]);
    // The failed send signed nonce 2 and never broadcast it; the next send signed 2 again.
    expect(signedNonces).toEqual([0, 1, 2, 2, 3]);
    // Once when the key was cold, once after the failure.
    expect(counting.counter.nonceReads).toBe(2);
    expect(await sender.send(call).then((hash) => minedNonces([hash]))).toEqual([4]);
    expect(counting.counter.nonceReads).toBe(2);
  });

  it("a send the node refuses, with nothing sent after it, gives its nonce to the next send", async () => {
    const { account, signedNonces } = await countedKey(4);
    const counting = countingClient();
    const sender = createKeySender({ client: counting.client, chain: foundry, account, nonces: embedded.relayNonces });
    await sender.send(call);
    // Below the intrinsic 21000 gas of a transfer: anvil refuses it at broadcast.
    await expect(sender.send({ ...call, gas: 20_000n })).rejects.toThrow();
    const next = await sender.send(call);
    expect(await minedNonces([next])).toEqual([1]);
    expect(signedNonces).toEqual([0, 1, 1]);
    // Once when the key was cold, once after the refusal.
    expect(counting.counter.nonceReads).toBe(2);
  });

  it("ends a send's turn once its transaction is handed to the node: the next send is signed before the node answers", async () => {
    const { account, signedNonces } = await countedKey(5);
    let releaseAnswer = () => {};
    const answerHeld = new Promise<void>((resolve) => {
      releaseAnswer = resolve;
    });
    const holding = createPublicClient({
      chain: foundry,
      transport: custom({
        request: async ({ method, params }) => {
          // The first broadcast's answer waits until the test has seen the second transaction signed.
          const hold = method === "eth_sendRawTransaction" && signedNonces.length === 1;
          const answer = await client.request({ method, params } as never);
          if (hold) await answerHeld;
          return answer;
        },
      }),
      pollingInterval: 50,
    });
    const sender = createKeySender({ client: holding, chain: foundry, account, nonces: embedded.relayNonces });
    const first = sender.send(call);
    const second = sender.send(call);
    await waitFor(async () => signedNonces.length === 2, { timeoutMs: 5_000, what: "the second send signed while the first answer is held" });
    releaseAnswer();
    expect(await minedNonces(await Promise.all([first, second]))).toEqual([0, 1]);
  });

  it("a send the node refuses after a later one went out leaves a gap its monitor fills at once", async () => {
    const { account } = await countedKey(6);
    const events: MonitorEvent[] = [];
    // Gaps nobody claims wait 120 s here: a fill within the test can only be the refused nonce's own.
    const sender = createKeySender({
      client,
      chain: foundry,
      account,
      nonces: embedded.relayNonces,
      monitor: { role: "relayer", policy: { replaceAfterMs: 60_000, intervalMs: 50 }, onEvent: (event) => events.push(event) },
    });
    sender.monitor.start();
    try {
      await sender.send(call);
      const results = await Promise.allSettled([sender.send(call), sender.send({ ...call, gas: 20_000n }), sender.send(call)]);
      expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      const hashes = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
      // The third send took nonce 3 before the refusal of 2 came back; the monitor's filler takes 2.
      expect(await minedNonces(hashes)).toEqual([1, 3]);
      expect(events).toContainEqual(expect.objectContaining({ reason: "gap", nonce: 2 }));
      expect(await client.getTransactionCount({ address: account.address, blockTag: "latest" })).toBe(4);
    } finally {
      await sender.monitor.stop();
    }
  });
});

describe("key sender shared by two instances on PostgreSQL", () => {
  it("sends from two instances on one key all land with consecutive nonces", async () => {
    const account = await fundedKey(0x5a4edn, 1);
    const [a, b] = instances.map((storage) => createKeySender({ client, chain: foundry, account, nonces: storage.relayNonces }));
    const hashes = await Promise.all(Array.from({ length: 24 }, (_, index) => (index % 2 === 0 ? a! : b!).send(call)));
    expect(await minedNonces(hashes)).toEqual(Array.from({ length: 24 }, (_, index) => index));
  });

  it("a send refused before its broadcast leaves no gap for the other instance's next send", async () => {
    const account = await fundedKey(0x5a4edn, 2);
    const [a, b] = instances.map((storage) => createKeySender({ client, chain: foundry, account, nonces: storage.relayNonces }));
    const first = await a!.send(call);
    await expect(a!.send(call, { beforeBroadcast: async () => Promise.reject(new Error("journal write failed")) })).rejects.toThrow("journal write failed");
    const next = await b!.send(call);
    expect(await minedNonces([first, next])).toEqual([0, 1]);
  });

  it("a transaction the key sent elsewhere is covered by the chain's pending count", async () => {
    const account = await fundedKey(0x5a4edn, 3);
    const a = createKeySender({ client, chain: foundry, account, nonces: instances[0]!.relayNonces });
    const first = await a.send(call);
    const outside = await client.sendRawTransaction({
      serializedTransaction: await account.signTransaction({ type: "eip1559", chainId: foundry.id, nonce: 1, ...call }),
    });
    const after = await a.send(call);
    expect(await minedNonces([first, outside, after])).toEqual([0, 1, 2]);
  });

  it("with both monitors on, a dropped nonce is re-sent by the instance that sent it, and no nonce is signed by both", async () => {
    const account = await fundedKey(0x5a4edn, 4);
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
      return createKeySender({
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
