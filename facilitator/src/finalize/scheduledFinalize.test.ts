/**
 * The finalize schedule on a real daemon and a real chain: due payments wait for a same-amount crowd of k and
 * then go out in the keyed order, and a schedule held by max_delay_seconds survives a SIGKILL of a real
 * facilitator process (`facilitator/dist/cli.js`): nothing is minted early after the restart, each payment
 * is minted exactly once, by the first pass that starts after its maximum delay. A hold counts only where the
 * mint was possible: a proved root covers the payment's burn, the pass completed, and the finalize step never
 * saw the payment (no outcome line for it in the daemon's debug log), so the schedule, not a missing root,
 * withheld it. And what the indexer is asked: never `/events?to=<burn address>`, only one `/proofs` request
 * per pass, each of the pass's burns with at least three other payers' burns of its value, nothing else.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startFacilitatorProcess, waitFor, type FacilitatorProcess } from "@svc/anvil-fixtures";
import { zerc20TokenAbi, zerc20Protocol, zerc20VerifierAbi, type PaymentRequirements } from "@svc/scheme";
import { type Address, createWalletClient, http, isAddressEqual, parseEventLogs, type Hex, zeroAddress } from "viem";
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

/** The transfer-tree leaf index of a burn: its IndexedTransfer's `index`. */
async function leafOf(burnTxHash: Hex): Promise<bigint> {
  const receipt = await stack.client.getTransactionReceipt({ hash: burnTxHash });
  const [transfer] = parseEventLogs({ abi: zerc20TokenAbi, eventName: "IndexedTransfer", logs: receipt.logs, strict: true });
  if (transfer === undefined) throw new TypeError(`${burnTxHash} has no IndexedTransfer`);
  return transfer.args.index;
}

/**
 * Waits until the verifier's latest proved root covers every burn of `payments` (leaf i is under the root at
 * tree index N iff i < N: zerc20-real.md §2) and returns that index: the root a mint of them would prove against.
 */
async function untilProved(payments: readonly { burnTxHash: Hex }[]): Promise<bigint> {
  const leaves = await Promise.all(payments.map((payment) => leafOf(payment.burnTxHash)));
  const highest = leaves.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).at(-1) ?? 0n;
  const proved = await waitFor(
    async () => {
      const index = await stack.client.readContract({ address: stack.deployment.verifier, abi: zerc20VerifierAbi, functionName: "latestProvedIndex" });
      return index > highest ? index : undefined;
    },
    { what: `a proved root covering leaf ${highest}`, timeoutMs: 20_000, intervalMs: 100 },
  );
  const root = await stack.client.readContract({
    address: stack.deployment.verifier,
    abi: zerc20VerifierAbi,
    functionName: "provedTransferRoots",
    args: [proved],
  });
  expect(root).not.toBe(0n);
  return proved;
}

/** The finalize step's outcome events (createFinalizeLoop.ts), one per payment it was handed in a pass. */
const FINALIZE_OUTCOMES = ["finalize_waiting", "payment_finalized", "payment_failed"];

/** The finalize outcomes the log names for `nonces`, as `event nonce`: empty when the finalize step never saw them. */
function finalizeOutcomes(lines: readonly string[], nonces: readonly Hex[]): string[] {
  const wanted = new Set(nonces.map((nonce) => nonce.toLowerCase()));
  return lines
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { event?: string; challenge_nonce?: string })
    .filter((record) => FINALIZE_OUTCOMES.includes(record.event ?? "") && wanted.has((record.challenge_nonce ?? "").toLowerCase()))
    .map((record) => `${record.event} ${record.challenge_nonce?.toLowerCase()}`);
}

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
    // The loop's own timer never fires during the test: every pass is one the test runs. The debug log has the
    // finalize step's outcome line for every payment it is handed.
    const daemon = await startTestDaemon(stack, "schedule-crowd", {
      daemon: { finalize_interval_ms: 600_000, challenge_per_key_per_min: 0, log_level: "debug" },
      finalize: policy,
    });
    const nonceOf = (payment: { requirements: PaymentRequirements }) => payment.requirements.extra.challengeNonce;
    try {
      const mintsBefore = await mintCount();
      const first = [];
      for (let index = 0; index < policy.min_anonymity_set - 1; index++) first.push(await pay(daemon.url, "1000", soonDue));
      // A different amount does not join the crowd.
      const lone = await pay(daemon.url, "2000");
      await untilDue(first);
      // The mint is possible: a proved root covers every burn so far, before the pass looks at them.
      await untilProved([...first, lone]);
      const passesBefore = await finalizePasses(daemon.url);
      await daemon.finalizeOnce();
      // Due, short of the crowd: held. The pass completed (a failed one is not counted), the finalize step was
      // never handed the payments, and nothing was minted: the schedule withheld mints the root allowed. (Had
      // the maximum passed, the same pass would have minted them.)
      expect(await finalizePasses(daemon.url)).toBe(passesBefore + 1);
      expect(finalizeOutcomes(daemon.logs, [...first, lone].map(nonceOf))).toEqual([]);
      expect((await settlements(daemon.url)).filter((entry) => entry.state !== "accepted")).toEqual([]);
      expect(await mintCount()).toBe(mintsBefore);

      const last = await pay(daemon.url, "1000", soonDue);
      await untilDue([...first, last]);
      // The pass below must find every burn under a proved root, so that it mints the whole crowd at once.
      await untilProved([last]);
      await daemon.finalizeOnce();
      const listed = await settlements(daemon.url);
      const finalized = listed.filter((entry) => entry.state === "finalized");
      const crowd = [...first, last].map(nonceOf);
      expect(finalized.map((entry) => entry.challengeNonce).sort()).toEqual([...crowd].sort());
      expect(finalizeOutcomes(daemon.logs, crowd).sort()).toEqual(crowd.map((nonce) => `payment_finalized ${nonce.toLowerCase()}`).sort());
      // The lone 2000 payment is still held (no crowd), never handed to the finalize step although a proved root
      // covers it: its maximum had not passed. The last payment was accepted no earlier, so neither had its
      // maximum: the crowd released it, not the maximum.
      const heldLone = listed.find((entry) => entry.challengeNonce === nonceOf(lone));
      const lastEntry = listed.find((entry) => entry.challengeNonce === nonceOf(last));
      expect(listed.filter((entry) => entry.state === "accepted").map((entry) => entry.challengeNonce)).toEqual([nonceOf(lone)]);
      expect(finalizeOutcomes(daemon.logs, [nonceOf(lone)])).toEqual([]);
      expect(heldLone!.acceptedAt).toBeLessThanOrEqual(lastEntry!.acceptedAt);
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
        finalized.map((entry) => ({ challenge: { challengeNonce: entry.challengeNonce }, at: entry.acceptedAt })),
      ).map((entry) => entry.challenge.challengeNonce);
      expect(chainOrder).toEqual(keyed);
    } finally {
      await daemon.stop();
    }
  });

  it("keeps a payment's schedule across a SIGKILL: nothing minted early after the restart, each minted once, by the first pass after max", async () => {
    // k is never reached by two payments, so only the maximum releases them: a sharp time to check.
    const policy = { min_delay_seconds: 1, max_delay_seconds: 10, min_anonymity_set: 3 };
    // Debug: the log has the finalize step's outcome line for every payment it is handed.
    const configPath = await writeConfigVariant(stack, "schedule-restart", {
      settlement: { journal: "schedule-restart.journal.jsonl" },
      daemon: { burn_address_pool_size: 2, finalize_interval_ms: 1000, log_level: "debug" },
      finalize: policy,
    });
    const first = await startFacilitatorProcess({ configPath, env: stack.env });
    running.push(first);
    const mintsBefore = await mintCount();
    const payments = [await pay(first.url, "3000"), await pay(first.url, "3000")];
    const nonces = payments.map((payment) => payment.requirements.extra.challengeNonce);
    await first.stop("SIGKILL");
    // The mint is possible from the restarted process's first pass on: a proved root covers both burns.
    await untilProved(payments);

    const second = await startFacilitatorProcess({ configPath, env: stack.env });
    running.push(second);
    // A completed pass of the restarted process is the proof that it looked at the payments and held them.
    await waitFor(async () => ((await finalizePasses(second.url)) >= 1 ? true : undefined), {
      what: "a finalize pass after the restart",
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    const restored = (await settlements(second.url)).filter((entry) => nonces.includes(entry.challengeNonce));
    expect(restored.map((entry) => entry.state)).toEqual(["accepted", "accepted"]);
    // Held by the restored schedule, not by a missing root: the finalize step was never handed them, and nothing
    // was minted. (Had the maximum passed, that pass would have minted them.)
    expect(finalizeOutcomes(second.lines, nonces)).toEqual([]);
    expect(await mintCount()).toBe(mintsBefore);

    // Released by the first pass that starts after the maximum: once the maximum has passed, a pass may already
    // be under way (started before it), so the second completed pass after that moment is the first that surely
    // started after it. Ordered by the daemon's own pass count, no wall-clock bound on how long a pass takes.
    const maximum = Math.max(...restored.map((entry) => entry.acceptedAt)) + policy.max_delay_seconds;
    await waitFor(async () => (unixNow() >= maximum ? true : undefined), {
      what: "the maximum delay to pass",
      timeoutMs: (policy.max_delay_seconds + 5) * 1000,
      intervalMs: 100,
    });
    const passesAtMaximum = await finalizePasses(second.url);
    await waitFor(async () => ((await finalizePasses(second.url)) >= passesAtMaximum + 2 ? true : undefined), {
      what: "two finalize passes after the maximum",
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    const finalized = (await settlements(second.url)).filter((entry) => nonces.includes(entry.challengeNonce) && entry.state === "finalized");
    expect(finalized.map((entry) => entry.challengeNonce).sort()).toEqual([...nonces].sort());
    // Not minted early: the journal's own times (the daemon's clock) put each mint at or after its maximum.
    for (const entry of finalized) expect(entry.finalizedAt!).toBeGreaterThanOrEqual(entry.acceptedAt + policy.max_delay_seconds);
    expect(finalizeOutcomes(second.lines, nonces).sort()).toEqual(nonces.map((nonce) => `payment_finalized ${nonce.toLowerCase()}`).sort());
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
  it("never a burn address: no /events query, and one /proofs request per pass giving each burn three same-value burns of others", async () => {
    const indexer = await startRecordingProxy(stack.deployment.indexerUrl);
    // Every pass is one the test runs.
    const daemon = await startTestDaemon(stack, "indexer-mix", {
      daemon: { finalize_interval_ms: 600_000 },
      network: { indexer_url: indexer.url },
      finalize: { witnesses: "indexer" },
    });
    try {
      const offers = [await requestOffer(daemon, "4000"), await requestOffer(daemon, "4100"), await requestOffer(daemon, "4200")];
      // Another payer's burns of each offer's amount into fresh addresses (decoy candidates), three before the
      // burns and three after, so the randomly placed decoy window holds three whatever its placement; and a
      // transfer of another value, which is none.
      const wallet = createWalletClient({
        chain: foundry,
        transport: http(stack.deployment.rpcUrl),
        account: privateKeyToAccount(stack.deployment.accounts.payer2.privateKey),
      });
      const send = async (to: Address, value: bigint) =>
        stack.client.waitForTransactionReceipt({
          hash: await wallet.writeContract({ address: stack.deployment.token, abi: zerc20TokenAbi, functionName: "transfer", args: [to, value] }),
        });
      const fresh = (n: number): Address => `0x${(0xdec0_0000 + n).toString(16).padStart(40, "0")}`;
      const sameValueBurns = async (phase: number) => {
        for (const [n, requirements] of offers.entries()) for (let k = 0; k < 3; k++) await send(fresh(phase * 100 + n * 10 + k), BigInt(requirements.amount));
      };
      await sameValueBurns(0);
      await send(stack.deployment.accounts.payee.address, 7n);
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
      await sameValueBurns(1);
      const lastLeaf = (
        await stack.client.getContractEvents({
          address: stack.deployment.token,
          abi: zerc20TokenAbi,
          eventName: "IndexedTransfer",
          fromBlock: 0n,
          strict: true,
        })
      )
        .map((log) => log.args.index)
        .reduce((high, index) => (index > high ? index : high), 0n);
      await waitFor(
        async () => {
          const proved = await stack.client.readContract({ address: stack.deployment.verifier, abi: zerc20VerifierAbi, functionName: "latestProvedIndex" });
          return proved > lastLeaf ? true : undefined;
        },
        { what: "a proved root covering the burns and their decoys", timeoutMs: 20_000, intervalMs: 100 },
      );
      await daemon.finalizeOnce();
      const listed = await settlements(daemon.url);
      expect(listed.filter((entry) => entry.state === "finalized")).toHaveLength(offers.length);

      expect(indexer.requests.filter((request) => request.path.startsWith("/events"))).toEqual([]);
      const proofs = indexer.requests.filter((request) => request.path === "/proofs").map((request) => JSON.parse(request.body) as { leaf_indices: number[] });
      expect(proofs).toHaveLength(1);
      const [leaves] = proofs.map((body) => body.leaf_indices);
      expect(leaves).toEqual(expect.arrayContaining(burnLeaves.map(Number)));
      expect(leaves).toEqual([...leaves!].sort((a, b) => a - b));
      // Every other leaf is a payment burn of one of the pass's amounts: no mint, nothing to or from the treasury.
      const logs = await stack.client.getContractEvents({
        address: stack.deployment.token,
        abi: zerc20TokenAbi,
        eventName: "IndexedTransfer",
        fromBlock: 0n,
        strict: true,
      });
      const byLeaf = new Map(logs.map((log) => [Number(log.args.index), log.args]));
      const treasury = stack.deployment.accounts.treasury.address;
      const decoys = leaves!.filter((leaf) => !burnLeaves.map(Number).includes(leaf)).map((leaf) => byLeaf.get(leaf)!);
      for (const decoy of decoys) {
        expect(offers.map((offer) => BigInt(offer.amount))).toContain(decoy.value);
        expect([zeroAddress, treasury].some((ours) => isAddressEqual(decoy.from, ours) || isAddressEqual(decoy.to, ours))).toBe(false);
      }
      for (const offer of offers) expect(decoys.filter((decoy) => decoy.value === BigInt(offer.amount)).length).toBeGreaterThanOrEqual(3);
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
