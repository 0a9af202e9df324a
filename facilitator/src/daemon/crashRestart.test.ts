/**
 * A facilitator process killed (SIGKILL) at the points where a payer's money is out but the payment is not
 * yet accepted, then started again on the same configuration and journal: every payment the payer completed
 * settles after the restart, and no burn executes twice. Real processes (`facilitator/dist/cli.js`), a real
 * anvil with its automine switched off to hold a relayed burn in the mempool.
 */
import { startFacilitatorProcess, waitFor, type FacilitatorProcess } from "@svc/anvil-fixtures";
import { permitBurnerAbi, type PaymentRequirements } from "@svc/scheme";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  signPermitPayment,
  startTestStack,
  writeConfigVariant,
  type TestStack,
} from "../testing/localFacilitator.js";

let stack: TestStack;
const running: FacilitatorProcess[] = [];

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  for (const process of running) await process.stop("SIGKILL");
  await stack?.close();
});

async function startFacilitator(name: string, settlement: Record<string, unknown> = {}): Promise<FacilitatorProcess> {
  const configPath = await writeConfigVariant(stack, name, {
    settlement: { journal: `${name}.journal.jsonl`, permit_receipt_timeout_ms: 1000, ...settlement },
    daemon: { burn_address_pool_size: 2 },
  });
  const started = await startFacilitatorProcess({ configPath, env: stack.env });
  running.push(started);
  return started;
}

const settle = (facilitator: FacilitatorProcess, body: unknown) => postJson(`${facilitator.url}/settle`, body);

async function burnsTo(requirements: PaymentRequirements): Promise<Hex[]> {
  const events = await stack.client.getContractEvents({
    address: stack.deployment.permitBurner,
    abi: permitBurnerAbi,
    eventName: "BurnExecuted",
    fromBlock: 0n,
    strict: true,
  });
  return events.filter((event) => event.args.burnAddress.toLowerCase() === requirements.payTo.toLowerCase()).map((event) => event.transactionHash);
}

function waitForLine(facilitator: FacilitatorProcess, marker: string, timeoutMs = 20_000): Promise<string> {
  return waitFor(() => facilitator.lines.find((candidate) => candidate.includes(marker)), { what: `a log line with ${marker}`, timeoutMs, intervalMs: 50 });
}

describe("a facilitator killed before the payer's settle arrives", () => {
  it("still settles the self-transfer whose funds are at payTo, and the signed permit, after the restart", async () => {
    const first = await startFacilitator("killed-before-settle");
    const transferred = await requestOffer(first, "1000");
    const permitted = await requestOffer(first, "2000");
    const burnTxHash = await broadcastBurn(stack, transferred, stack.deployment.accounts.payer.privateKey);
    const permit = await signPermitPayment(stack, permitted, stack.deployment.accounts.payer2.privateKey);
    expect(await first.stop("SIGKILL")).toBe("SIGKILL");

    const second = await startFacilitator("killed-before-settle");
    const selfTransfer = await settle(second, facilitatorBody(transferred, { challengeNonce: transferred.extra.challengeNonce, burnTxHash }));
    expect(selfTransfer.body).toMatchObject({ success: true, transaction: burnTxHash, extra: { phase: "accepted" } });
    const permitSettle = await settle(second, facilitatorBody(permitted, permit));
    expect(permitSettle.body).toMatchObject({ success: true, extra: { phase: "accepted" } });
    expect(await burnsTo(permitted)).toEqual([permitSettle.body.transaction]);
  });
});

describe("a facilitator killed while its relayed burn waits in the mempool", () => {
  it("answers pending_burn after the restart, never relay_failed, and accepts the one burn once it is mined", async () => {
    const first = await startFacilitator("killed-in-mempool", { permit_receipt_timeout_ms: 60_000 });
    const requirements = await requestOffer(first, "3000");
    const body = facilitatorBody(requirements, await signPermitPayment(stack, requirements, stack.deployment.accounts.payer.privateKey));
    await stack.client.request({ method: "evm_setAutomine" as never, params: [false] as never });
    try {
      const lost = settle(first, body).catch(() => undefined);
      const broadcast = JSON.parse(await waitForLine(first, '"event":"permit_burn_broadcast"')) as { burn_tx: Hex };
      await first.stop("SIGKILL");
      await lost;

      const second = await startFacilitator("killed-in-mempool");
      expect((await settle(second, body)).body).toMatchObject({ success: false, errorReason: "pending_burn", transaction: broadcast.burn_tx });
      await stack.client.request({ method: "evm_setAutomine" as never, params: [true] as never });
      await stack.client.request({ method: "evm_mine" as never, params: [] as never });
      expect((await settle(second, body)).body).toMatchObject({ success: true, transaction: broadcast.burn_tx, extra: { phase: "accepted" } });
      expect(await burnsTo(requirements)).toEqual([broadcast.burn_tx]);
    } finally {
      await stack.client.request({ method: "evm_setAutomine" as never, params: [true] as never });
    }
  });
});

describe("a facilitator killed after its relayed burn was broadcast, which then mines while it is down", () => {
  it("reconciles the intent to accepted at start, before any re-send, and the re-send gets the same answer", async () => {
    const first = await startFacilitator("killed-then-mined", { permit_receipt_timeout_ms: 60_000 });
    const requirements = await requestOffer(first, "4000");
    const body = facilitatorBody(requirements, await signPermitPayment(stack, requirements, stack.deployment.accounts.payer2.privateKey));
    await stack.client.request({ method: "evm_setAutomine" as never, params: [false] as never });
    let broadcast: { burn_tx: Hex };
    try {
      const lost = settle(first, body).catch(() => undefined);
      broadcast = JSON.parse(await waitForLine(first, '"event":"permit_burn_broadcast"')) as { burn_tx: Hex };
      await first.stop("SIGKILL");
      await lost;
    } finally {
      await stack.client.request({ method: "evm_setAutomine" as never, params: [true] as never });
    }
    await stack.client.request({ method: "evm_mine" as never, params: [] as never });

    const second = await startFacilitator("killed-then-mined");
    const reconciled = JSON.parse(await waitForLine(second, '"event":"intents_reconciled"')) as { accepted: number };
    expect(reconciled.accepted).toBe(1);
    expect(await burnsTo(requirements)).toEqual([broadcast.burn_tx]);
    expect((await settle(second, body)).body).toMatchObject({ success: true, transaction: broadcast.burn_tx });
  });
});
