/**
 * A key's transaction monitor against a real anvil with automine off: a tracked transaction the node drops is
 * re-sent and the ones queued behind it land; a transaction stuck under a 20x base-fee spike is replaced with
 * bumped fees, and a receipt wait on its first hash resolves to the replacement; a low fee cap stops the bump
 * (counted once) and the capped transaction lands once the base fee comes down; a fresh sender after a
 * restart adopts the journaled transactions and fills the nonce nobody holds.
 */
import { countSignedNonces } from "../testing/countingSigner.js";
import { devAccounts, startAnvil, waitFor, type StartAnvilReturnType } from "@svc/anvil-fixtures";
import { createPublicClient, http, toHex, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openEmbeddedStorage } from "../storage/openEmbeddedStorage.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";
import { createKeySender, type EstimatedCall } from "./createKeySender.js";
import type { GasPolicy, MonitorEvent } from "./createTransactionMonitor.js";

let anvil: StartAnvilReturnType;
let client: PublicClient;
// The one process's storage: every test's key is new to it, as to a freshly started daemon.
let storage: FacilitatorStorage;

beforeAll(async () => {
  anvil = await startAnvil();
  storage = await openEmbeddedStorage({ journalPath: null, challenges: { maxOpenChallenges: 10, retentionSeconds: 60 } });
  client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl, { batch: { wait: 0 }, retryCount: 0 }), pollingInterval: 50 });
});

afterEach(async () => {
  await rpc("evm_setAutomine", [true]);
});

afterAll(async () => {
  await storage?.close();
  await anvil?.stop();
});

const rpc = (method: string, params: unknown[] = []) => client.request({ method: method as never, params: params as never });

async function transferCall(): Promise<EstimatedCall> {
  const fees = await client.estimateFeesPerGas();
  return { to: devAccounts().payer.address, data: "0x", gas: 21_000n, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
}

/** A fresh funded key per test (nonce 0 on the shared node) whose signer records the nonces it signed. */
async function fundedAccount(index: number) {
  const account = privateKeyToAccount(`0x${(0x6a5e0n + BigInt(index)).toString(16).padStart(64, "0")}` as Hex);
  await rpc("anvil_setBalance", [account.address, "0x56bc75e2d63100000"]);
  return countSignedNonces(account);
}

function senderOf(account: Awaited<ReturnType<typeof fundedAccount>>["account"], policy: GasPolicy) {
  const events: MonitorEvent[] = [];
  const sender = createKeySender({
    client,
    chain: foundry,
    account,
    nonces: storage.relayNonces,
    monitor: { role: "relayer", policy, onEvent: (event) => events.push(event) },
  });
  return { sender, events };
}

async function nonceOf(hash: Hex): Promise<number> {
  return (await client.getTransaction({ hash })).nonce;
}

async function receiptOf(hash: Hex) {
  return client.getTransactionReceipt({ hash }).catch(() => undefined);
}

describe("transaction monitor", () => {
  it("re-sends a tracked transaction the node dropped; the two queued behind its nonce land, and so does the next send", async () => {
    const { account } = await fundedAccount(1);
    const { sender, events } = senderOf(account, { replaceAfterMs: 60_000 });
    await rpc("evm_setAutomine", [false]);
    const call = await transferCall();
    const hashes = [await sender.send(call), await sender.send(call), await sender.send(call)];
    await rpc("anvil_dropTransaction", [hashes[0]]);
    expect(await client.getTransactionCount({ address: account.address, blockTag: "pending" })).toBe(0);
    await waitFor(
      async () => {
        await sender.monitor.check();
        return events.some((event) => event.reason === "dropped" && event.nonce === 0);
      },
      { what: "the dropped nonce re-sent", timeoutMs: 15_000, intervalMs: 50 },
    );
    // Still priced right: the very same transactions went out again (anvil drops a transaction's successors
    // in the pool with it, so all three were re-sent, in nonce order).
    expect(events.filter((event) => event.reason === "dropped")).toEqual(
      hashes.map((hash, nonce) => ({ role: "relayer", reason: "dropped", nonce, oldHash: hash, newHash: hash })),
    );
    await rpc("evm_mine");
    for (const hash of hashes) expect((await receiptOf(hash))?.status).toBe("success");
    await rpc("evm_setAutomine", [true]);
    const next = await sender.send(call);
    expect(await nonceOf(next)).toBe(3);
    await sender.monitor.check();
    expect(sender.monitor.size()).toBe(0);
  });

  it("replaces a transaction stuck under a 20x base-fee spike with bumped fees; a wait on its first hash gets the replacement's receipt", async () => {
    const { account } = await fundedAccount(2);
    const { sender, events } = senderOf(account, { replaceAfterMs: 200 });
    await rpc("evm_setAutomine", [false]);
    const call = await transferCall();
    const first = await sender.send(call);
    // 20 times what the transaction offers (a decayed base fee times 20 may still be under it).
    await rpc("anvil_setNextBlockBaseFeePerGas", [toHex(call.maxFeePerGas * 20n)]);
    await rpc("evm_mine");
    expect(await receiptOf(first)).toBeUndefined();
    // Anvil evicts a transaction the base fee outgrew (a drop, re-priced at once); a node that keeps it
    // has it replaced after the deadline. Either way: a new hash on nonce 0, with bumped fees.
    const replaced = await waitFor(
      async () => {
        await sender.monitor.check();
        return events.find((event) => (event.reason === "stuck" || event.reason === "dropped") && event.newHash !== event.oldHash);
      },
      { what: "a fee-bumped replacement", timeoutMs: 15_000, intervalMs: 50 },
    );
    expect(replaced).toMatchObject({ role: "relayer", nonce: 0, oldHash: first });
    const replacement = await client.getTransaction({ hash: replaced.newHash as Hex });
    const estimate = await client.estimateFeesPerGas();
    expect(replacement.nonce).toBe(0);
    expect(replacement.maxFeePerGas).toBeGreaterThanOrEqual((call.maxFeePerGas * 1125n) / 1000n);
    expect(replacement.maxPriorityFeePerGas).toBeGreaterThanOrEqual((call.maxPriorityFeePerGas * 1125n) / 1000n);
    // At least what the spiked chain asks: the base fee after the spike block, with viem's margin.
    expect(replacement.maxFeePerGas).toBeGreaterThanOrEqual(estimate.maxFeePerGas);
    await rpc("evm_mine");
    const receipt = await sender.monitor.waitReceipt(first, { timeoutMs: 5_000 });
    expect(receipt?.status).toBe("success");
    expect(sender.monitor.hashesOf(first)).toContain(receipt?.transactionHash);
    expect(await receiptOf(first)).toBeUndefined();
    expect(await client.getTransactionCount({ address: account.address, blockTag: "latest" })).toBe(1);
  });

  it("a low fee cap stops the bump: never signed above it, counted once, and the capped transaction lands when the base fee falls", async () => {
    const { account, signedNonces } = await fundedAccount(3);
    const call = await transferCall();
    const cap = call.maxFeePerGas * 2n;
    const { sender, events } = senderOf(account, { replaceAfterMs: 150, maxFeePerGas: cap });
    await rpc("evm_setAutomine", [false]);
    const first = await sender.send(call);
    const baseFee = (await client.getBlock()).baseFeePerGas ?? 0n;
    // 20 times what the transaction offers (a decayed base fee times 20 may still be under it).
    await rpc("anvil_setNextBlockBaseFeePerGas", [toHex(call.maxFeePerGas * 20n)]);
    await rpc("evm_mine");
    await waitFor(
      async () => {
        await sender.monitor.check();
        return events.some((event) => event.reason === "fee_cap");
      },
      { what: "the fee cap reached", timeoutMs: 15_000, intervalMs: 50 },
    );
    // Passes after the cap: each one looks again and finds the same ceiling.
    for (let pass = 0; pass < 5; pass++) await sender.monitor.check();
    expect(events.filter((event) => event.reason === "fee_cap")).toHaveLength(1);
    const signed = await Promise.all(sender.monitor.hashesOf(first).map((hash) => client.getTransaction({ hash }).catch(() => undefined)));
    for (const transaction of signed) if (transaction) expect(transaction.maxFeePerGas).toBeLessThanOrEqual(cap);
    expect(signedNonces.every((nonce) => nonce === 0)).toBe(true);
    // The market comes back under the cap: the transaction, never signed above it, is mined.
    await rpc("anvil_setNextBlockBaseFeePerGas", [toHex(baseFee)]);
    await rpc("evm_mine");
    await rpc("evm_setAutomine", [true]);
    const receipt = await waitFor(
      async () => {
        await sender.monitor.check();
        return sender.monitor.waitReceipt(first, { timeoutMs: 0 });
      },
      { what: "the capped transaction mined", timeoutMs: 15_000, intervalMs: 50 },
    );
    expect(receipt.status).toBe("success");
    expect(receipt.effectiveGasPrice).toBeLessThanOrEqual(cap);
  });

  it("after a restart, a fresh sender adopts the journaled transactions, signs above them, and fills the nonce nobody holds", async () => {
    const { account } = await fundedAccount(4);
    await rpc("evm_setAutomine", [false]);
    const call = await transferCall();
    // The process before the restart journaled nonces 1 and 2 and broadcast them; nonce 0 was lost with it.
    const journaled = await Promise.all([1, 2].map((nonce) => account.signTransaction({ type: "eip1559", chainId: foundry.id, nonce, ...call })));
    const hashes = await Promise.all(journaled.map((serializedTransaction) => client.sendRawTransaction({ serializedTransaction })));
    expect([
      await client.getTransactionCount({ address: account.address, blockTag: "pending" }),
      await client.getTransactionCount({ address: account.address, blockTag: "latest" }),
    ]).toEqual([0, 0]);
    const { sender, events } = senderOf(account, { replaceAfterMs: 300 });
    for (const serialized of journaled) sender.monitor.adopt(serialized);
    const next = await sender.send(call);
    expect(await nonceOf(next)).toBe(3);
    sender.monitor.start();
    try {
      const filled = await waitFor(() => events.find((event) => event.reason === "gap"), { what: "the gap filled", timeoutMs: 15_000, intervalMs: 50 });
      expect(filled).toMatchObject({ role: "relayer", nonce: 0 });
      // Nonces 1 to 3 waited behind the gap in the pool: none of them was re-sent or bumped.
      expect(events.filter((event) => event.reason !== "gap")).toEqual([]);
      await rpc("evm_mine");
      const filler = await client.getTransaction({ hash: filled.newHash as Hex });
      expect(filler).toMatchObject({ nonce: 0, to: account.address.toLowerCase(), value: 0n });
      for (const hash of [filled.newHash as Hex, ...hashes, next])
        expect((await sender.monitor.waitReceipt(hash, { timeoutMs: 5_000 }))?.status).toBe("success");
      expect(await client.getTransactionCount({ address: account.address, blockTag: "latest" })).toBe(4);
    } finally {
      await sender.monitor.stop();
    }
  });
});
