/**
 * Relays the node forgets or leaves underpriced, on a real daemon (in-process) and a real anvil with automine
 * off: a relayed permit burn dropped from the pool is re-sent by the relayer's monitor and accepted under its
 * own hash; a relay stuck under a 20x base-fee spike is replaced with bumped fees, the replacement journaled
 * before it is broadcast, and the payment accepted under the replacement's hash; each burns exactly once
 * (BurnExecuted counted), later relays and the mints go through, and `/metrics` counts the replacements.
 */
import { permitBurnerAbi, type PaymentRequirements, type PermitPayload } from "@svc/scheme";
import { waitFor } from "@svc/anvil-fixtures";
import { toHex, type Hex } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
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
import { parsePrometheusText, sampleValue } from "../testing/parsePrometheusText.js";

let stack: TestStack;
let daemon: TestDaemon;

beforeAll(async () => {
  // Roots proved every 300 ms and a finalize pass a second: the mints of these payments follow within the test.
  stack = await startTestStack({ rootIntervalMs: 300 });
  // Replacement after 2 s: long enough that a relay waiting on a test's next step is not bumped meanwhile,
  // short enough that the monitor (a pass every 666 ms) acts within the test's deadlines.
  daemon = await startTestDaemon(stack, "stuck", {
    settlement: { permit_receipt_timeout_ms: 1000 },
    daemon: { finalize_interval_ms: 1000 },
    gas: { replace_after_seconds: 2 },
  });
});

afterEach(async () => {
  await rpc("evm_setAutomine", [true]);
});

afterAll(async () => {
  await daemon?.stop();
  await stack?.close();
});

const rpc = (method: string, params: unknown[] = []) => stack.client.request({ method: method as never, params: params as never });
const settle = (body: unknown) => postJson(`${daemon.url}/settle`, body);

async function permitOffer(key: Hex): Promise<{ requirements: PaymentRequirements; payload: PermitPayload }> {
  const requirements = await requestOffer(daemon, "1000");
  return { requirements, payload: await signPermitPayment(stack, requirements, key) };
}

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

function logged(event: string, fields: Record<string, string | number> = {}): Record<string, unknown> | undefined {
  for (const line of daemon.logs) {
    if (!line.includes(`"event":"${event}"`)) continue;
    const parsed = JSON.parse(line) as Record<string, unknown>;
    if (Object.entries(fields).every(([key, value]) => parsed[key] === value)) return parsed;
  }
  return undefined;
}

async function replacements(reason: string): Promise<number> {
  const response = await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${stack.env.SVC_ADMIN_TOKEN}` } });
  return sampleValue(parsePrometheusText(await response.text()), "facilitator_tx_replacements_total", { key: "relayer", reason }) ?? 0;
}

describe("a relay the node forgets or underprices", () => {
  it("a relay dropped from the pool is re-sent unchanged, accepted under its hash, burned once, and minted", async () => {
    const { requirements, payload } = await permitOffer(stack.deployment.accounts.payer.privateKey);
    const body = facilitatorBody(requirements, payload);
    await rpc("evm_setAutomine", [false]);
    const pending = await settle(body);
    expect(pending.body).toMatchObject({ success: false, errorReason: "pending_burn" });
    const relayed = pending.body.transaction as Hex;
    await rpc("anvil_dropTransaction", [relayed]);
    expect(await rpc("eth_getTransactionByHash", [relayed])).toBeNull();
    await waitFor(() => logged("tx_resent", { key: "relayer", old_tx: relayed }), { what: "the dropped relay re-sent", timeoutMs: 15_000 });
    await rpc("evm_mine");
    const settled = await settle(body);
    expect(settled.body).toMatchObject({ success: true, transaction: relayed });
    expect(await burnsTo(requirements)).toEqual([relayed]);
    expect(await replacements("dropped")).toBeGreaterThanOrEqual(1);
    // Nothing waits behind the relay's nonce: the next relay and the mint go through.
    await rpc("evm_setAutomine", [true]);
    const next = await permitOffer(stack.deployment.accounts.payer2.privateKey);
    expect((await settle(facilitatorBody(next.requirements, next.payload))).body).toMatchObject({ success: true });
    await waitForState(stack, daemon, requirements.extra.challengeNonce as string, "finalized");
  });

  it("a relay stuck under a 20x base-fee spike is replaced with bumped fees, journaled first, and accepted under the replacement once", async () => {
    const { requirements, payload } = await permitOffer(stack.deployment.accounts.payer.privateKey);
    const body = facilitatorBody(requirements, payload);
    await rpc("evm_setAutomine", [false]);
    const pending = await settle(body);
    expect(pending.body).toMatchObject({ success: false, errorReason: "pending_burn" });
    const relayed = pending.body.transaction as Hex;
    const original = await stack.client.getTransaction({ hash: relayed });
    // 20 times what the relay offers: anvil's base fee decays towards zero on a quiet chain, so 20 times
    // the base fee alone could still be under the relay's priority-fee-dominated maxFeePerGas.
    const spike = (original.maxFeePerGas ?? 0n) * 20n;
    await rpc("anvil_setNextBlockBaseFeePerGas", [toHex(spike)]);
    await rpc("evm_mine");
    // Anvil evicts the outpriced relay (re-priced as a drop); a node that keeps it sees it bumped at the deadline.
    const change = await waitFor(() => logged("tx_resent", { key: "relayer", old_tx: relayed }) ?? logged("tx_replaced", { key: "relayer", old_tx: relayed }), {
      what: "the stuck relay replaced",
      timeoutMs: 15_000,
    });
    const replacementHash = change.new_tx as Hex;
    expect(replacementHash).not.toBe(relayed);
    const replacement = await stack.client.getTransaction({ hash: replacementHash });
    expect(replacement.nonce).toBe(original.nonce);
    expect(replacement.maxFeePerGas).toBeGreaterThanOrEqual(((original.maxFeePerGas ?? 0n) * 1125n) / 1000n);
    expect(replacement.maxFeePerGas).toBeGreaterThan(spike);
    // Journaled before it went out: the journal's latest relay of the challenge is a hash of this nonce.
    const journal = (await readFile(join(stack.dir, "stuck.journal.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const relays = journal.filter((record) => record.type === "relay" && record.challengeNonce === requirements.extra.challengeNonce);
    expect(relays.map((record) => record.txHash)).toContain(replacementHash);
    // No line carries the signed bytes.
    expect(daemon.logs.some((line) => line.includes(replacement.input.slice(2, 66)))).toBe(false);
    await rpc("evm_setAutomine", [true]);
    await rpc("evm_mine");
    const settled = await waitFor(
      async () => {
        const answer = await settle(body);
        return answer.body.success ? answer : undefined;
      },
      { what: "the payment accepted", timeoutMs: 15_000 },
    );
    const burns = await burnsTo(requirements);
    expect(burns).toHaveLength(1);
    expect(settled.body.transaction).toBe(burns[0]);
    expect(settled.body.transaction).not.toBe(relayed);
  });
});
