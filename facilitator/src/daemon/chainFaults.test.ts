/**
 * The chain misbehaving around accepted payments: a real daemon on a real stack whose anvil is made to
 * reorganise (`anvil_reorg`), to mine only when told (`anvil_mine`), with roots proved only when the test says
 * so (`proveNow`) and finalize passes run only when the test says so (`finalizeOnce`). After every fault the
 * money invariants are checked on the canonical chain: no burn executed twice, no mint doubled, no accepted
 * payment finalized from stale evidence, every payment ends finalized or with a documented reason.
 */
import { waitFor } from "@svc/anvil-fixtures";
import { permitBurnerAbi, zerc20Protocol, type PaymentRequirements } from "@svc/scheme";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminGet,
  balanceOf,
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  signPermitPayment,
  startTestDaemon,
  startTestStack,
  type ConfigPatch,
  type TestDaemon,
  type TestStack,
} from "../testing/localFacilitator.js";

let stack: TestStack;
const payer = () => stack.deployment.accounts.payer.privateKey;

beforeAll(async () => {
  // No root job: roots are proved when a test says so, so no block is mined behind a test's back.
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.close();
});

/**
 * Finalize passes only on demand; a burn or mint is watched until three blocks deep; a transaction the chain
 * lost is re-sent by its key's monitor after a second.
 */
const WATCHED: ConfigPatch = { daemon: { finalize_interval_ms: 600_000 }, network: { finality_depth: 3 }, gas: { replace_after_seconds: 1 } };

/** Runs finalize passes until `reached` answers, within a deadline. */
function passesUntil<T>(daemon: TestDaemon, reached: () => Promise<T | undefined | false>, what: string): Promise<T> {
  return waitFor(
    async () => {
      await daemon.finalizeOnce();
      return reached();
    },
    { what, timeoutMs: 30_000 },
  );
}

const rpc = (method: string, params: unknown[] = []) => stack.client.request({ method: method as never, params: params as never });
const mine = (blocks: number) => rpc("anvil_mine", [`0x${blocks.toString(16)}`]);
/** Replaces the last `depth` blocks with as many empty ones: every transaction in them is gone, none back in the pool. */
const reorg = (depth: number) => rpc("anvil_reorg", [depth, []]);
const settle = (daemon: TestDaemon, requirements: PaymentRequirements, payload: object) =>
  postJson(`${daemon.url}/settle`, facilitatorBody(requirements, payload));

async function burnsInto(payTo: string): Promise<Hex[]> {
  const events = await stack.client.getContractEvents({
    address: stack.deployment.permitBurner,
    abi: permitBurnerAbi,
    eventName: "BurnExecuted",
    fromBlock: 0n,
    strict: true,
  });
  return events.filter((event) => event.args.burnAddress.toLowerCase() === payTo.toLowerCase()).map((event) => event.transactionHash);
}

async function mintsToTreasury(): Promise<number> {
  const logs = await stack.client.getLogs({
    address: stack.deployment.verifier,
    event: zerc20Protocol(stack.deployment.protocol).teleportEvent,
    args: { to: stack.deployment.accounts.treasury.address },
    fromBlock: 0n,
  });
  return logs.length;
}

/** What the treasury and the fee recipient hold together: a fee sweep moves money between them, never out. */
async function treasuryAndFeeRecipient(): Promise<bigint> {
  const { treasury, feeRecipient } = stack.deployment.accounts;
  return (await balanceOf(stack, treasury.address)) + (await balanceOf(stack, feeRecipient.address));
}

async function metric(daemon: TestDaemon, name: string, labels?: string): Promise<number> {
  const response = await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${stack.env.SVC_ADMIN_TOKEN}` } });
  const sample = labels === undefined ? `${name} ` : `${name}{${labels}}`;
  const line = (await response.text()).split("\n").find((candidate) => candidate.startsWith(sample));
  return Number(line?.split(" ")[1] ?? 0);
}

async function entryOf(daemon: TestDaemon, challengeNonce: string): Promise<{ state: string; burnTxHash: Hex; reason?: string; mintTxHash?: Hex }> {
  const { settlements } = await adminGet(stack, daemon, "/admin/settlements");
  return (settlements as { challengeNonce: string; state: string; burnTxHash: Hex }[]).find((entry) => entry.challengeNonce === challengeNonce) as never;
}

async function payBySelfTransfer(daemon: TestDaemon) {
  const requirements = await requestOffer(daemon, "2000");
  const burnTxHash = await broadcastBurn(stack, requirements, payer());
  return { requirements, payload: { challengeNonce: requirements.extra.challengeNonce, burnTxHash } };
}

describe("confirmations: accepted means the burn is that deep", () => {
  it("answers a self-transfer one block deep pending_burn, consuming nothing, and accepts it once two deep", async () => {
    const daemon = await startTestDaemon(stack, "confirm-self", { ...WATCHED, network: { confirmations: 2 }, settlement: { permit_receipt_timeout_ms: 300 } });
    try {
      const { requirements, payload } = await payBySelfTransfer(daemon);
      const early = await settle(daemon, requirements, payload);
      expect(early.body).toMatchObject({ success: false, errorReason: "pending_burn", transaction: payload.burnTxHash });
      expect(await entryOf(daemon, requirements.extra.challengeNonce)).toBeUndefined();
      await mine(1);
      const settled = await settle(daemon, requirements, payload);
      expect(settled.body).toMatchObject({ success: true, transaction: payload.burnTxHash, extra: { phase: "accepted" } });
    } finally {
      await daemon.stop();
    }
  });

  it("holds a relayed permit burn until it is two deep, then answers accepted in the same settle", async () => {
    const daemon = await startTestDaemon(stack, "confirm-permit", {
      ...WATCHED,
      network: { confirmations: 2 },
      settlement: { permit_receipt_timeout_ms: 20_000 },
    });
    try {
      const requirements = await requestOffer(daemon, "2000");
      const answer = settle(daemon, requirements, await signPermitPayment(stack, requirements, payer()));
      await waitFor(() => daemon.logs.some((line) => line.includes('"permit_burn_broadcast"')), { what: "the relay broadcast", timeoutMs: 10_000 });
      const burnTx = JSON.parse(daemon.logs.find((line) => line.includes('"permit_burn_broadcast"')) as string).burn_tx as Hex;
      await waitFor(() => stack.client.getTransactionReceipt({ hash: burnTx }).catch(() => undefined), { what: "the burn mined", timeoutMs: 10_000 });
      expect(await entryOf(daemon, requirements.extra.challengeNonce)).toBeUndefined();
      await mine(1);
      expect((await answer).body).toMatchObject({ success: true, transaction: burnTx, extra: { phase: "accepted" } });
      expect(await burnsInto(requirements.payTo)).toEqual([burnTx]);
    } finally {
      await daemon.stop();
    }
  });
});

describe("reorgs around accept", () => {
  it("never accepts a relayed permit burn a reorg removed while it waited for its second confirmation, and accepts the one that burns", async () => {
    const daemon = await startTestDaemon(stack, "reorg-confirming", {
      ...WATCHED,
      network: { confirmations: 2 },
      settlement: { permit_receipt_timeout_ms: 20_000 },
    });
    try {
      const requirements = await requestOffer(daemon, "2000");
      const payload = await signPermitPayment(stack, requirements, payer());
      const answer = settle(daemon, requirements, payload);
      await waitFor(() => daemon.logs.some((line) => line.includes('"permit_burn_broadcast"')), { what: "the relay broadcast", timeoutMs: 10_000 });
      const removedTx = JSON.parse(daemon.logs.find((line) => line.includes('"permit_burn_broadcast"')) as string).burn_tx as Hex;
      await waitFor(() => stack.client.getTransactionReceipt({ hash: removedTx }).catch(() => undefined), { what: "the burn mined", timeoutMs: 10_000 });
      // The burn's block is replaced while the settle waits; the next block gives the old height its depth.
      await reorg(1);
      await mine(1);
      const first = (await answer).body;
      expect(first).toMatchObject({ success: false, errorReason: "pending_burn", transaction: removedTx });
      expect(await entryOf(daemon, requirements.extra.challengeNonce)).toBeUndefined();
      // Whatever burns for this offer on the new chain (the monitor's re-send), the payer's re-send hears it.
      const [burnTx] = await waitFor(
        async () => {
          const burns = await burnsInto(requirements.payTo);
          return burns.length > 0 ? burns : undefined;
        },
        { what: "a burn on the new chain", timeoutMs: 20_000 },
      );
      await mine(1);
      expect((await settle(daemon, requirements, payload)).body).toMatchObject({ success: true, transaction: burnTx });
      expect(await burnsInto(requirements.payTo)).toEqual([burnTx]);
      expect(await entryOf(daemon, requirements.extra.challengeNonce)).toMatchObject({ state: "accepted", burnTxHash: burnTx });
    } finally {
      await daemon.stop();
    }
  });
});

describe("reorgs after accepted", () => {
  for (const depth of [1, 2, 3]) {
    it(`relays a permit burn a reorg of depth ${depth} removed again, with the payer's authorization, and it burns once and mints once`, async () => {
      const daemon = await startTestDaemon(stack, `reorg-permit-${depth}`, WATCHED);
      try {
        const requirements = await requestOffer(daemon, "3000");
        const payload = await signPermitPayment(stack, requirements, payer());
        const accepted = await settle(daemon, requirements, payload);
        expect(accepted.body).toMatchObject({ success: true, extra: { phase: "accepted" } });
        if (depth > 1) await mine(depth - 1);
        await reorg(depth);
        expect(await burnsInto(requirements.payTo)).toEqual([]);

        // The watch relays the authorization again, or the relayer's monitor re-sends the removed relay itself
        // (whichever comes first); the replay ledger lets exactly one of them burn, and the payment follows it.
        const [burnTx] = await passesUntil(
          daemon,
          async () => {
            const burns = await burnsInto(requirements.payTo);
            return burns.length > 0 ? burns : undefined;
          },
          "a burn on the new chain",
        );
        const moved = await passesUntil(
          daemon,
          async () => {
            const entry = await entryOf(daemon, requirements.extra.challengeNonce);
            return entry.burnTxHash === burnTx ? entry : undefined;
          },
          "the payment following the burn on the new chain",
        );
        expect(moved.state).toBe("accepted");
        // The payer's re-send hears the burn that is on the chain now.
        expect((await settle(daemon, requirements, payload)).body).toMatchObject({ success: true, transaction: burnTx });
        const reorgOutcomes = await Promise.all(
          ["pending", "moved", "rebroadcast"].map((outcome) => metric(daemon, "facilitator_reorgs_total", `subject="burn",outcome="${outcome}"`)),
        );
        expect(reorgOutcomes.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(0);
        // Each move is logged from the removed transaction to its successor.
        const moves = daemon.logs.map((line) => JSON.parse(line)).filter((line) => line.event === "burn_reorged" && line.new_burn_tx !== undefined);
        expect(moves.length).toBeGreaterThan(0);
        expect(moves[0].burn_tx).toBe(accepted.body.transaction);
        for (const move of moves) expect(move.burn_tx).not.toBe(move.new_burn_tx);

        const mintsBefore = await mintsToTreasury();
        await stack.indexer.proveNow();
        // The daemon proves only against roots three blocks deep.
        await mine(2);
        await passesUntil(daemon, async () => (await entryOf(daemon, requirements.extra.challengeNonce)).state === "finalized", "the payment finalized");
        expect(await mintsToTreasury()).toBe(mintsBefore + 1);
        expect(await burnsInto(requirements.payTo)).toEqual([burnTx]);
      } finally {
        await daemon.stop();
      }
    });
  }

  it("never finalizes a self-transfer burn a reorg removed: pending_burn while its block may return, evidence_vanished once final", async () => {
    const daemon = await startTestDaemon(stack, "reorg-self", WATCHED);
    try {
      const { requirements, payload } = await payBySelfTransfer(daemon);
      expect((await settle(daemon, requirements, payload)).body).toMatchObject({ success: true });
      const mintsBefore = await mintsToTreasury();
      await reorg(1);
      await daemon.finalizeOnce();
      expect(await entryOf(daemon, requirements.extra.challengeNonce)).toMatchObject({ state: "accepted" });
      expect((await settle(daemon, requirements, payload)).body).toMatchObject({
        success: false,
        errorReason: "pending_burn",
        transaction: payload.burnTxHash,
      });
      expect((await adminGet(stack, daemon, "/admin/status")).backlog.reorged.count).toBe(1);

      await mine(3);
      await stack.indexer.proveNow();
      await daemon.finalizeOnce();
      expect(await entryOf(daemon, requirements.extra.challengeNonce)).toMatchObject({ state: "failed", reason: "evidence_vanished" });
      expect((await settle(daemon, requirements, payload)).body).toMatchObject({
        success: false,
        errorReason: "burn_receipt_missing",
        transaction: payload.burnTxHash,
      });
      expect(await metric(daemon, "facilitator_reorgs_total", 'subject="burn",outcome="vanished"')).toBe(1);
      expect(await metric(daemon, "facilitator_finalize_failures_total", 'reason="evidence_vanished"')).toBe(1);
      expect((await adminGet(stack, daemon, "/admin/status")).backlog.reorged.count).toBe(0);
      expect(await mintsToTreasury()).toBe(mintsBefore);
    } finally {
      await daemon.stop();
    }
  });
});

describe("reorgs after finalized", () => {
  // The removed blocks: the mint's, the fee sweep's after it, and `above` more mined on top. The reorg comes at
  // once (the minter's monitor may still watch the mint and re-send it), or once the monitor has seen the mint
  // mined and let it go (only the reorg watch can bring it back then).
  const cases = [
    { above: 0, monitor: "at once" },
    { above: 1, monitor: "at once" },
    { above: 0, monitor: "after the minter's monitor let the mint go" },
  ] as const;
  for (const [index, { above, monitor }] of cases.entries()) {
    it(`mints again a payment whose mint a reorg removed with ${above} more block(s) on top (${monitor}), once, from the paths it kept until the mint was final`, async () => {
      const daemon = await startTestDaemon(stack, `reorg-mint-${index}`, {
        ...WATCHED,
        daemon: { finalize_interval_ms: 600_000, log_level: "debug" },
      });
      try {
        const { requirements, payload } = await payBySelfTransfer(daemon);
        expect((await settle(daemon, requirements, payload)).body).toMatchObject({ success: true });
        await stack.indexer.proveNow();
        // The root is one block deep; the daemon proves only against roots three deep.
        await daemon.finalizeOnce();
        expect(await entryOf(daemon, requirements.extra.challengeNonce)).toMatchObject({ state: "accepted" });
        await mine(2);
        const mintsBefore = await mintsToTreasury();
        const heldBefore = await treasuryAndFeeRecipient();
        await daemon.finalizeOnce();
        const finalized = await entryOf(daemon, requirements.extra.challengeNonce);
        expect(finalized.state).toBe("finalized");
        expect(await mintsToTreasury()).toBe(mintsBefore + 1);
        // The mint's block is not final yet: the payment's Merkle path is kept.
        expect(await metric(daemon, "facilitator_witness_tracked_paths")).toBe(1);

        // Back to before the mint's block.
        const mintBlock = (await stack.client.getTransactionReceipt({ hash: finalized.mintTxHash as Hex })).blockNumber;
        if (above > 0) await mine(above);
        if (monitor !== "at once") {
          await waitFor(async () => daemon.logs.some((line) => line.includes('"tx_mined"') && line.includes('"key":"relayer"')), {
            what: "the minter's monitor letting the mint go",
            timeoutMs: 10_000,
          });
        }
        await reorg(Number((await stack.client.getBlockNumber({ cacheTime: 0 })) - mintBlock + 1n));
        expect(await mintsToTreasury()).toBe(mintsBefore);
        // The mint is sent again (or the minter's monitor re-sends the removed one): either way it lands once.
        await passesUntil(daemon, async () => (await entryOf(daemon, requirements.extra.challengeNonce)).state === "finalized", "the payment finalized again");
        expect(await mintsToTreasury()).toBe(mintsBefore + 1);
        expect(await metric(daemon, "facilitator_reorgs_total", 'subject="mint",outcome="reopened"')).toBe(1);
        // The payment is held once: the verifier paid the amount again, and the fee sweep (re-sent or not yet)
        // only moves part of it from the treasury to the fee recipient.
        expect(await treasuryAndFeeRecipient()).toBe(heldBefore + BigInt(requirements.amount));

        // Once the new mint is final, nothing can reopen the payment: its path goes.
        await mine(3);
        await passesUntil(daemon, async () => (await metric(daemon, "facilitator_witness_tracked_paths")) === 0, "the path released");
        expect((await entryOf(daemon, requirements.extra.challengeNonce)).state).toBe("finalized");
      } finally {
        await daemon.stop();
      }
    });
  }
});
