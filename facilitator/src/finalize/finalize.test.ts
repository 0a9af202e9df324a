/**
 * The finalize loop end to end: real daemon, real stack (indexer root job on), real mints and fees.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { waitFor } from "@svc/anvil-fixtures";
import { zerc20Protocol } from "@svc/scheme";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  balanceOf,
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  signPermitPayment,
  startTestDaemon,
  startTestStack,
  waitForState,
  type TestDaemon,
  type TestStack,
} from "../testing/localFacilitator.js";

let stack: TestStack;
const payer = () => stack.deployment.accounts.payer.privateKey;
const treasury = () => stack.deployment.accounts.treasury.address;
const feeRecipient = () => stack.deployment.accounts.feeRecipient.address;

beforeAll(async () => {
  stack = await startTestStack({ rootIntervalMs: 300 });
});

afterAll(async () => {
  await stack?.close();
});

const FAST = { daemon: { finalize_interval_ms: 1000 } };

async function payWithSelfTransfer(daemon: TestDaemon, list = "100000") {
  const requirements = await requestOffer(daemon, list);
  const burnTxHash = await broadcastBurn(stack, requirements, payer());
  const settled = await postJson(`${daemon.url}/settle`, facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash }));
  expect(settled.body.success).toBe(true);
  return requirements;
}

async function balances<T extends readonly Address[]>(...addresses: T): Promise<{ [K in keyof T]: bigint }> {
  return (await Promise.all(addresses.map((address) => balanceOf(stack, address)))) as { [K in keyof T]: bigint };
}

async function teleportsTo(to: Address): Promise<number> {
  const logs = await stack.client.getLogs({
    address: stack.deployment.verifier,
    event: zerc20Protocol(stack.deployment.protocol).teleportEvent,
    args: { to },
    fromBlock: 0n,
  });
  return logs.length;
}

describe("custodial fees", () => {
  it("finalizes a self-transfer and a permit payment: the treasury gets the list price, the fee recipient the fee", async () => {
    const daemon = await startTestDaemon(stack, "custodial-payer", FAST);
    try {
      const [treasuryBefore, feeBefore] = await balances(treasury(), feeRecipient());
      const selfTransfer = await payWithSelfTransfer(daemon, "100000");
      const permitOffer = await requestOffer(daemon, "50000");
      const permit = await postJson(`${daemon.url}/settle`, facilitatorBody(permitOffer, await signPermitPayment(stack, permitOffer, payer())));
      expect(permit.body.success).toBe(true);
      const finalized = await waitForState(stack, daemon, selfTransfer.extra.challengeNonce, "finalized");
      expect(finalized.mintTxHash).toMatch(/^0x[0-9a-f]{64}$/);
      await waitForState(stack, daemon, permitOffer.extra.challengeNonce, "finalized");
      await waitFor(async () => (await balances(feeRecipient()))[0] === feeBefore + 1000n + 500n, {
        what: "both fees at the fee recipient",
        timeoutMs: 20_000,
      });
      // 1% of 100000 and of 50000, charged to the payer on top of the list price.
      expect(selfTransfer.amount).toBe("101000");
      expect(permitOffer.amount).toBe("50500");
      expect(await balances(treasury(), feeRecipient())).toEqual([treasuryBefore + 150_000n, feeBefore + 1500n]);
      expect(daemon.logs.some((line) => line.includes('"payment_finalized"') && line.includes(selfTransfer.extra.challengeNonce))).toBe(true);
    } finally {
      await daemon.stop();
    }
  });

  it("takes a provider-charged fee out of the payout, rounding the fee up to the unit", async () => {
    const daemon = await startTestDaemon(stack, "custodial-provider", {
      ...FAST,
      fee: { bps: 100, min_per_payment: 0, charge_to: "provider", recipient: feeRecipient() },
    });
    try {
      const [treasuryBefore, feeBefore] = await balances(treasury(), feeRecipient());
      const requirements = await payWithSelfTransfer(daemon, "12345");
      expect(requirements.amount).toBe("12345");
      expect(requirements.extra.fee).toBeUndefined();
      await waitForState(stack, daemon, requirements.extra.challengeNonce, "finalized");
      // ceil(12345 * 100 / 10000) = 124
      await waitFor(async () => (await balances(feeRecipient()))[0] === feeBefore + 124n, { what: "the fee at the fee recipient", timeoutMs: 20_000 });
      expect(await balances(treasury(), feeRecipient())).toEqual([treasuryBefore + 12_345n - 124n, feeBefore + 124n]);
    } finally {
      await daemon.stop();
    }
  });
});

describe("split fees", () => {
  it("mints to the splitter and distributes between payee and fee recipient by the splitter's bps", async () => {
    const splitter = stack.deployment.feeSplitter;
    const payee = stack.deployment.feeSplit.payee;
    const daemon = await startTestDaemon(stack, "split", {
      ...FAST,
      settlement: { treasury: splitter },
      fee: { bps: stack.deployment.feeSplit.bps, min_per_payment: 0, charge_to: "payer", splitter, recipient: null },
    });
    try {
      const [payeeBefore, feeBefore] = await balances(payee, feeRecipient());
      const requirements = await payWithSelfTransfer(daemon, "100000");
      await waitForState(stack, daemon, requirements.extra.challengeNonce, "finalized");
      const minted = BigInt(requirements.amount);
      const fee = (minted * BigInt(stack.deployment.feeSplit.bps)) / 10_000n;
      await waitFor(async () => (await balances(payee))[0] === payeeBefore + minted - fee, { what: "the payee paid", timeoutMs: 20_000 });
      expect(await balances(payee, feeRecipient(), splitter)).toEqual([payeeBefore + minted - fee, feeBefore + fee, 0n]);
    } finally {
      await daemon.stop();
    }
  });
});

describe("batch path", () => {
  it("mints every transfer a burn address received through the decider", async () => {
    const daemon = await startTestDaemon(stack, "batch", FAST);
    try {
      const [treasuryBefore] = await balances(treasury());
      const requirements = await payWithSelfTransfer(daemon, "100000");
      await broadcastBurn(stack, requirements, payer(), 777n);
      await waitForState(stack, daemon, requirements.extra.challengeNonce, "finalized");
      await waitFor(async () => (await balances(treasury()))[0] === treasuryBefore + 100_000n + 777n, { what: "the treasury paid", timeoutMs: 20_000 });
    } finally {
      await daemon.stop();
    }
  });
});

describe("restarts", () => {
  it("an entry accepted before a stop is finalized exactly once after the restart", async () => {
    const first = await startTestDaemon(stack, "restart-finalize", { daemon: { finalize_interval_ms: 600_000 } });
    const requirements = await payWithSelfTransfer(first, "4242");
    await first.stop();
    const mintsBefore = await teleportsTo(treasury());
    const second = await startTestDaemon(stack, "restart-finalize", FAST);
    try {
      await waitForState(stack, second, requirements.extra.challengeNonce, "finalized");
      await second.stop();
      const third = await startTestDaemon(stack, "restart-finalize", FAST);
      await third.finalizeOnce();
      await third.finalizeOnce();
      await third.stop();
      expect(await teleportsTo(treasury())).toBe(mintsBefore + 1);
    } finally {
      await second.stop();
    }
  });

  it("a non-local profile leaves accepted entries untouched until the same local configuration returns", async () => {
    const local = await startTestDaemon(stack, "frozen", { daemon: { finalize_interval_ms: 600_000 } });
    const requirements = await payWithSelfTransfer(local, "999");
    await local.stop();
    const mintsBefore = await teleportsTo(treasury());
    const env = { ...stack.env, SVC_TREASURY_PK: `0x${"5a".repeat(32)}`, SVC_RELAYER_PK: `0x${"6b".repeat(32)}`, SVC_MINTER_PK: `0x${"7c".repeat(32)}` };
    const providers = { shop: { key_sha256: "0f".repeat(32) } };
    const testnet = await startTestDaemon(stack, "frozen", { profile: "testnet", fee: null, providers, ...FAST }, env);
    await testnet.finalizeOnce();
    expect(testnet.logs.some((line) => line.includes('"event":"finalize_frozen"'))).toBe(true);
    const pending = await waitForState(stack, testnet, requirements.extra.challengeNonce, "accepted");
    expect(pending.state).toBe("accepted");
    await testnet.stop();
    expect(await teleportsTo(treasury())).toBe(mintsBefore);
    const again = await startTestDaemon(stack, "frozen", FAST);
    try {
      await waitForState(stack, again, requirements.extra.challengeNonce, "finalized");
    } finally {
      await again.stop();
    }
  });
});

describe("infrastructure failures", () => {
  it('backs off while the indexer is down and finalizes once it is back (witnesses = "indexer")', async () => {
    const proxy = await startSwitchableProxy(stack.deployment.indexerUrl);
    const daemon = await startTestDaemon(stack, "indexer-down", { ...FAST, network: { indexer_url: proxy.url }, finalize: { witnesses: "indexer" } });
    try {
      proxy.down = true;
      const requirements = await payWithSelfTransfer(daemon, "3000");
      await waitFor(async () => daemon.logs.filter((line) => line.includes('"finalize_pass_failed"')).length >= 2, {
        what: "two failed finalize passes",
        timeoutMs: 15_000,
      });
      const delays = daemon.logs
        .filter((line) => line.includes('"finalize_pass_failed"'))
        .map((line) => (JSON.parse(line) as { retry_in_ms: number }).retry_in_ms);
      expect(delays.slice(0, 2)).toEqual([2000, 4000]);
      proxy.down = false;
      await waitForState(stack, daemon, requirements.extra.challengeNonce, "finalized", 30_000);
    } finally {
      await daemon.stop();
      await proxy.close();
    }
  });
});

describe('the indexer down under witnesses = "self"', () => {
  it("finalizes anyway: the Merkle paths come from the followed tree", async () => {
    const proxy = await startSwitchableProxy(stack.deployment.indexerUrl);
    const daemon = await startTestDaemon(stack, "indexer-down-self", { ...FAST, network: { indexer_url: proxy.url } });
    try {
      proxy.down = true;
      const requirements = await payWithSelfTransfer(daemon, "3100");
      await waitForState(stack, daemon, requirements.extra.challengeNonce, "finalized", 30_000);
      expect(daemon.logs.filter((line) => line.includes('"finalize_pass_failed"'))).toEqual([]);
    } finally {
      await daemon.stop();
      await proxy.close();
    }
  });
});

// Last: reverting the chain also reverts everything after the snapshot.
describe("vanished evidence", () => {
  it("fails the entry and mints nothing when the burn disappears from the chain", async () => {
    const daemon = await startTestDaemon(stack, "vanished", { daemon: { finalize_interval_ms: 600_000 } });
    const snapshot = await stack.client.request({ method: "evm_snapshot" as never, params: [] as never });
    const requirements = await payWithSelfTransfer(daemon, "5555");
    await daemon.stop();
    await stack.client.request({ method: "evm_revert" as never, params: [snapshot] as never });
    // A reorg's new chain grows past the removed burn's block: only then is the burn's absence final.
    await stack.client.request({ method: "anvil_mine" as never, params: ["0x4"] as never });
    const mintsBefore = await teleportsTo(treasury());
    const after = await startTestDaemon(stack, "vanished", FAST);
    try {
      const failed = await waitForState(stack, after, requirements.extra.challengeNonce, "failed");
      expect(failed.reason).toBe("evidence_vanished");
      expect(await teleportsTo(treasury())).toBe(mintsBefore);
    } finally {
      await after.stop();
    }
  });
});

/** A forwarding proxy in front of the indexer that can be switched to answer 503. */
async function startSwitchableProxy(target: string): Promise<{ url: string; down: boolean; close: () => Promise<void> }> {
  const state = { down: false };
  const server: Server = createServer(async (request, response) => {
    if (state.down) {
      response.writeHead(503).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const upstream = await fetch(`${target}${request.url ?? "/"}`, {
      method: request.method,
      headers: { "content-type": "application/json" },
      ...(request.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
    });
    response.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
