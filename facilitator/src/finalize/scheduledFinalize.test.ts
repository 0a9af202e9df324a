/**
 * The finalize schedule on a real daemon and a real chain: due payments wait for a same-amount crowd of k and
 * then go out in the keyed order, and a schedule held by max_delay_seconds survives a SIGKILL of a real
 * facilitator process (`facilitator/dist/cli.js`): nothing is minted early after the restart, each payment
 * is minted exactly once, between its maximum delay and one pass later. And what the indexer is asked: never
 * `/events?to=<burn address>`, only one `/proofs` request per pass, the pass's burns mixed with other
 * addresses' leaves.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startFacilitatorProcess, waitFor, type FacilitatorProcess } from "@svc/anvil-fixtures";
import { zerc20TokenAbi, zerc20Protocol, zerc20VerifierAbi, type PaymentRequirements } from "@svc/scheme";
import { createWalletClient, http, parseEventLogs, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveBurnSeed } from "../challenges/burnSeed.js";
import type { FinalizeConfig } from "../config/facilitatorConfigSchema.js";
import {
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  startTestDaemon,
  startTestStack,
  writeConfigVariant,
  type TestStack,
} from "../testing/localFacilitator.js";
import { deriveScheduleKey, dueAt, finalizeDelaySeconds, sortByMintOrder, type FinalizeSchedule } from "./finalizeSchedule.js";

let stack: TestStack;
const running: FacilitatorProcess[] = [];

beforeAll(async () => {
  // The schedule is the same under both versions; v1's cheap burn addresses keep the keyed-delay search of
  // offers (about four per payment kept) well inside the policy's 12-second maximum.
  stack = await startTestStack({ rootIntervalMs: 300, protocol: "zerc20-v1" });
});

afterAll(async () => {
  for (const process of running) await process.stop("SIGKILL");
  await stack?.close();
});

type Listed = { challengeNonce: Hex; state: string; amount: string; acceptedAt: number; finalizedAt?: number; mintTxHash?: Hex };

const scheduleOf = (policy: FinalizeConfig): FinalizeSchedule => ({ policy, key: deriveScheduleKey(deriveBurnSeed(stack.env.SVC_TREASURY_PK as Hex)) });

async function admin(url: string, path: string): Promise<Response> {
  return fetch(`${url}${path}`, { headers: { authorization: `Bearer ${stack.env.SVC_ADMIN_TOKEN}` } });
}

async function settlements(url: string): Promise<Listed[]> {
  return ((await (await admin(url, "/admin/settlements")).json()) as { settlements: Listed[] }).settlements;
}

async function finalizePasses(url: string): Promise<number> {
  const text = await (await admin(url, "/metrics")).text();
  const line = text.split("\n").find((candidate) => candidate.startsWith("facilitator_finalize_passes_total "));
  return Number(line?.split(" ")[1] ?? 0);
}

async function mintCount(): Promise<number> {
  const logs = await stack.client.getLogs({
    address: stack.deployment.verifier,
    event: zerc20Protocol(stack.deployment.protocol).teleportEvent,
    args: { to: stack.deployment.accounts.treasury.address },
    fromBlock: 0n,
  });
  return logs.length;
}

const unixNow = () => Math.floor(Date.now() / 1000);

/** Pays an offer with the payer's own burn transfer and settles it; `pick` may skip offers (never paid). */
async function pay(
  url: string,
  amount: string,
  pick: (requirements: PaymentRequirements) => boolean = () => true,
): Promise<{ requirements: PaymentRequirements; burnTxHash: Hex }> {
  let requirements = await requestOffer({ url }, amount);
  for (let tries = 0; !pick(requirements); tries++) {
    if (tries > 200) throw new Error("no offer matched");
    requirements = await requestOffer({ url }, amount);
  }
  const burnTxHash = await broadcastBurn(stack, requirements, stack.deployment.accounts.payer.privateKey);
  const settled = await postJson(`${url}/settle`, facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash }));
  expect(settled.body).toMatchObject({ success: true, transaction: burnTxHash });
  return { requirements, burnTxHash };
}

describe("the finalize schedule on a real daemon", () => {
  it("holds due payments until k of the same amount wait, then mints them in one pass, in the keyed order", async () => {
    const policy = { min_delay_seconds: 0, max_delay_seconds: 12, min_anonymity_set: 5 };
    const schedule = scheduleOf(policy);
    // Only offers whose keyed delay is at most 2 s are paid, so the crowd is due long before the maximum.
    const soonDue = (requirements: PaymentRequirements) => finalizeDelaySeconds(schedule, requirements.extra.challengeNonce) <= 2;
    const untilDue = (payments: { requirements: PaymentRequirements }[]) =>
      waitFor(
        async () => {
          const listed = await settlements(daemon.url);
          const due = payments.map((payment) => listed.find((entry) => entry.challengeNonce === payment.requirements.extra.challengeNonce));
          return due.every((entry) => entry !== undefined && unixNow() >= dueAt(schedule, { challenge: entry, at: entry.acceptedAt })) ? due : undefined;
        },
        { what: "the payments due", timeoutMs: 10_000, intervalMs: 100 },
      );
    // The loop's own timer never fires during the test: every pass is one the test runs.
    const daemon = await startTestDaemon(stack, "schedule-crowd", {
      daemon: { finalize_interval_ms: 600_000, challenge_per_key_per_min: 0 },
      finalize: policy,
    });
    try {
      const mintsBefore = await mintCount();
      const first = [];
      for (let index = 0; index < policy.min_anonymity_set - 1; index++) first.push(await pay(daemon.url, "1000", soonDue));
      // A different amount does not join the crowd.
      await pay(daemon.url, "2000");
      const waiting = await untilDue(first);
      await daemon.finalizeOnce();
      // Due, short of the crowd, before the maximum: held.
      expect(unixNow()).toBeLessThan(Math.min(...waiting.map((entry) => entry!.acceptedAt)) + policy.max_delay_seconds);
      expect((await settlements(daemon.url)).filter((entry) => entry.state !== "accepted")).toEqual([]);
      expect(await mintCount()).toBe(mintsBefore);

      const last = await pay(daemon.url, "1000", soonDue);
      const crowd = await untilDue([...first, last]);
      // The pass below must find every burn under a proved root, so that it mints the whole crowd at once.
      const receipt = await stack.client.getTransactionReceipt({ hash: last.burnTxHash });
      const [transfer] = parseEventLogs({ abi: zerc20TokenAbi, eventName: "IndexedTransfer", logs: receipt.logs, strict: true });
      await waitFor(
        async () => {
          const proved = await stack.client.readContract({ address: stack.deployment.verifier, abi: zerc20VerifierAbi, functionName: "latestProvedIndex" });
          return transfer !== undefined && proved > transfer.args.index ? true : undefined;
        },
        { what: "a proved root covering the last burn", timeoutMs: 20_000, intervalMs: 100 },
      );
      await daemon.finalizeOnce();
      // Released by the crowd, not by the maximum.
      expect(unixNow()).toBeLessThan(Math.min(...crowd.map((entry) => entry!.acceptedAt)) + policy.max_delay_seconds);
      const listed = await settlements(daemon.url);
      const finalized = listed.filter((entry) => entry.state === "finalized");
      expect(finalized.map((entry) => entry.challengeNonce).sort()).toEqual(
        [...first, last].map((payment) => payment.requirements.extra.challengeNonce).sort(),
      );
      // The lone 2000 payment is still held: no crowd, max not reached.
      expect(listed.filter((entry) => entry.state === "accepted")).toHaveLength(1);
      expect(await mintCount()).toBe(mintsBefore + policy.min_anonymity_set);

      // On-chain order of the mints = the keyed order of their challenge nonces.
      const positions = await Promise.all(
        finalized.map(async (entry) => {
          const mint = await stack.client.getTransactionReceipt({ hash: entry.mintTxHash! });
          return { challengeNonce: entry.challengeNonce, block: mint.blockNumber, index: mint.transactionIndex };
        }),
      );
      const chainOrder = positions
        .sort((a, b) => (a.block === b.block ? a.index - b.index : a.block < b.block ? -1 : 1))
        .map((position) => position.challengeNonce);
      const keyed = sortByMintOrder(
        schedule,
        finalized.map((entry) => ({ challenge: { challengeNonce: entry.challengeNonce, amount: entry.amount }, at: entry.acceptedAt })),
      ).map((entry) => entry.challenge.challengeNonce);
      expect(chainOrder).toEqual(keyed);
    } finally {
      await daemon.stop();
    }
  });

  it("keeps a payment's schedule across a SIGKILL: nothing minted early after the restart, each minted once by max + one pass", async () => {
    // k is never reached by two payments, so only the maximum releases them: a sharp time to check.
    const policy = { min_delay_seconds: 1, max_delay_seconds: 10, min_anonymity_set: 3 };
    const configPath = await writeConfigVariant(stack, "schedule-restart", {
      settlement: { journal: "schedule-restart.journal.jsonl" },
      daemon: { burn_address_pool_size: 2, finalize_interval_ms: 1000 },
      finalize: policy,
    });
    const first = await startFacilitatorProcess({ configPath, env: stack.env });
    running.push(first);
    const mintsBefore = await mintCount();
    const payments = [await pay(first.url, "3000"), await pay(first.url, "3000")];
    const nonces = payments.map((payment) => payment.requirements.extra.challengeNonce);
    await first.stop("SIGKILL");

    const second = await startFacilitatorProcess({ configPath, env: stack.env });
    running.push(second);
    // A completed pass of the restarted process is the proof that it looked at the payments and held them.
    await waitFor(async () => ((await finalizePasses(second.url)) >= 1 ? true : undefined), {
      what: "a finalize pass after the restart",
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    const afterPass = Math.floor(Date.now() / 1000);
    const restored = (await settlements(second.url)).filter((entry) => nonces.includes(entry.challengeNonce));
    expect(restored.map((entry) => entry.state)).toEqual(["accepted", "accepted"]);
    // The check above means something only while the maximum delay has not passed yet.
    expect(afterPass).toBeLessThan(Math.min(...restored.map((entry) => entry.acceptedAt)) + policy.max_delay_seconds);
    expect(await mintCount()).toBe(mintsBefore);

    const finalized = await waitFor(
      async () => {
        const listed = (await settlements(second.url)).filter((entry) => nonces.includes(entry.challengeNonce) && entry.state === "finalized");
        return listed.length === nonces.length ? listed : undefined;
      },
      { what: "both payments finalized after the restart", timeoutMs: 30_000, intervalMs: 200 },
    );
    for (const entry of finalized) {
      expect(entry.finalizedAt!).toBeGreaterThanOrEqual(entry.acceptedAt + policy.max_delay_seconds);
      // Released by the first pass after the maximum: one 1 s interval, a second of whole-second rounding, and
      // the pass's own time (root wait, proof, mint receipt), which a loaded 2-core machine stretches to seconds.
      expect(entry.finalizedAt!).toBeLessThanOrEqual(entry.acceptedAt + policy.max_delay_seconds + 8);
    }
    const passes = await finalizePasses(second.url);
    await waitFor(async () => ((await finalizePasses(second.url)) > passes ? true : undefined), {
      what: "one more finalize pass",
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    expect(await mintCount()).toBe(mintsBefore + nonces.length);
    await second.stop("SIGTERM");
  });
});

describe("what the indexer is asked", () => {
  it("never a burn address: no /events query, and one /proofs request per pass mixing the pass's burns with other addresses' leaves", async () => {
    const indexer = await startRecordingProxy(stack.deployment.indexerUrl);
    // Every pass is one the test runs.
    const daemon = await startTestDaemon(stack, "indexer-mix", { daemon: { finalize_interval_ms: 600_000 }, network: { indexer_url: indexer.url } });
    try {
      const offers = [await requestOffer(daemon, "4000"), await requestOffer(daemon, "4100"), await requestOffer(daemon, "4200")];
      // Another address's transfer in the scanned range: a decoy candidate.
      const wallet = createWalletClient({
        chain: foundry,
        transport: http(stack.deployment.rpcUrl),
        account: privateKeyToAccount(stack.deployment.accounts.payer2.privateKey),
      });
      const other = await wallet.writeContract({
        address: stack.deployment.token,
        abi: zerc20TokenAbi,
        functionName: "transfer",
        args: [stack.deployment.accounts.payee.address, 7n],
      });
      await stack.client.waitForTransactionReceipt({ hash: other });
      const burnLeaves: bigint[] = [];
      for (const requirements of offers) {
        const burnTxHash = await broadcastBurn(stack, requirements, stack.deployment.accounts.payer.privateKey);
        const settled = await postJson(
          `${daemon.url}/settle`,
          facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash }),
        );
        expect(settled.body.success).toBe(true);
        const receipt = await stack.client.getTransactionReceipt({ hash: burnTxHash });
        burnLeaves.push(parseEventLogs({ abi: zerc20TokenAbi, eventName: "IndexedTransfer", logs: receipt.logs, strict: true })[0]!.args.index);
      }
      await waitFor(
        async () => {
          const proved = await stack.client.readContract({ address: stack.deployment.verifier, abi: zerc20VerifierAbi, functionName: "latestProvedIndex" });
          return proved > burnLeaves.at(-1)! ? true : undefined;
        },
        { what: "a proved root covering the burns", timeoutMs: 20_000, intervalMs: 100 },
      );
      await daemon.finalizeOnce();
      const listed = await settlements(daemon.url);
      expect(listed.filter((entry) => entry.state === "finalized")).toHaveLength(offers.length);

      expect(indexer.requests.filter((request) => request.path.startsWith("/events"))).toEqual([]);
      const proofs = indexer.requests.filter((request) => request.path === "/proofs").map((request) => JSON.parse(request.body) as { leaf_indices: number[] });
      expect(proofs).toHaveLength(1);
      const [leaves] = proofs.map((body) => body.leaf_indices);
      expect(leaves).toEqual(expect.arrayContaining(burnLeaves.map(Number)));
      expect(leaves!.length).toBeGreaterThan(burnLeaves.length);
      expect(leaves).toEqual([...leaves!].sort((a, b) => a - b));
    } finally {
      await daemon.stop();
      await indexer.close();
    }
  });
});

/** A pass-through proxy in front of the indexer that records every request's path and body. */
async function startRecordingProxy(target: string): Promise<{ url: string; requests: { path: string; body: string }[]; close: () => Promise<void> }> {
  const requests: { path: string; body: string }[] = [];
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    requests.push({ path: request.url ?? "/", body });
    const upstream = await fetch(`${target}${request.url ?? "/"}`, {
      method: request.method,
      headers: { "content-type": "application/json" },
      ...(request.method === "POST" ? { body } : {}),
    });
    response.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
