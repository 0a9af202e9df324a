/**
 * The settlement core end to end: a real daemon (in-process), real HTTP, a real anvil stack.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { PaymentRequirements } from "@svc/scheme";
import { parseEther, type Hex } from "viem";
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
  type TestDaemon,
  type TestStack,
} from "../testing/localFacilitator.js";

let stack: TestStack;
let daemon: TestDaemon;
const payerKey = () => stack.deployment.accounts.payer.privateKey;
const payer2Key = () => stack.deployment.accounts.payer2.privateKey;

beforeAll(async () => {
  stack = await startTestStack();
  daemon = await startTestDaemon(stack, "main");
});

afterAll(async () => {
  await daemon?.stop();
  await stack?.close();
});

const verify = (body: unknown) => postJson(`${daemon.url}/verify`, body);
const settle = (body: unknown) => postJson(`${daemon.url}/settle`, body);

describe("self-transfer path", () => {
  it("verifies, then settles to accepted with the burn transaction", async () => {
    const requirements = await requestOffer(daemon, "1000");
    const burnTxHash = await broadcastBurn(stack, requirements, payerKey());
    const body = facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash });
    expect((await verify(body)).body).toMatchObject({ isValid: true, payer: stack.deployment.accounts.payer.address });
    const settled = await settle(body);
    expect(settled).toEqual({
      status: 200,
      body: { success: true, transaction: burnTxHash, network: "eip155:31337", payer: stack.deployment.accounts.payer.address, extra: { phase: "accepted" } },
    });
    // A payer who lost the response re-sends the identical payload and gets the same accepted result.
    expect((await settle(body)).body).toEqual(settled.body);
    expect((await verify(body)).body).toMatchObject({ isValid: true });
  });

  it("refuses a burn transaction hash reused for a second offer", async () => {
    const first = await requestOffer(daemon);
    const burnTxHash = await broadcastBurn(stack, first, payerKey());
    expect((await settle(facilitatorBody(first, { challengeNonce: first.extra.challengeNonce, burnTxHash }))).body.success).toBe(true);
    const second = await requestOffer(daemon);
    const reused = facilitatorBody(second, { challengeNonce: second.extra.challengeNonce, burnTxHash });
    expect((await verify(reused)).body).toEqual({ isValid: false, invalidReason: "burn_tx_reused" });
    expect((await settle(reused)).body).toMatchObject({ success: false, errorReason: "burn_tx_reused" });
  });

  it("refuses a transfer below the amount, a missing receipt, and a different payload for an accepted challenge", async () => {
    const requirements = await requestOffer(daemon, "1000");
    const short = await broadcastBurn(stack, requirements, payerKey(), BigInt(requirements.amount) - 1n);
    const nonce = requirements.extra.challengeNonce;
    expect((await settle(facilitatorBody(requirements, { challengeNonce: nonce, burnTxHash: short }))).body.errorReason).toBe("transfer_below_amount");
    const missing = `0x${"ab".repeat(32)}`;
    expect((await verify(facilitatorBody(requirements, { challengeNonce: nonce, burnTxHash: missing }))).body.invalidReason).toBe("burn_receipt_missing");
    const full = await broadcastBurn(stack, requirements, payerKey());
    expect((await settle(facilitatorBody(requirements, { challengeNonce: nonce, burnTxHash: full }))).body.success).toBe(true);
    const other = await broadcastBurn(stack, requirements, payerKey());
    expect((await settle(facilitatorBody(requirements, { challengeNonce: nonce, burnTxHash: other }))).body.errorReason).toBe("payload_conflict");
  });
});

describe("permit path", () => {
  it("verifies, relays the burn with the relayer key, and settles to accepted", async () => {
    const requirements = await requestOffer(daemon, "2000");
    const payload = await signPermitPayment(stack, requirements, payerKey());
    const body = facilitatorBody(requirements, payload);
    expect((await verify(body)).body).toEqual({ isValid: true, payer: stack.deployment.accounts.payer.address });
    const before = await balanceOf(stack, requirements.payTo);
    const settled = await settle(body);
    expect(settled.body).toMatchObject({ success: true, extra: { phase: "accepted" } });
    expect(await balanceOf(stack, requirements.payTo)).toBe(before + BigInt(requirements.amount));
    const receipt = await stack.client.getTransactionReceipt({ hash: settled.body.transaction as Hex });
    expect(receipt.from.toLowerCase()).toBe(stack.deployment.accounts.relayer.address.toLowerCase());
    // The identical re-send is reconciled, never burned twice.
    expect((await settle(body)).body).toEqual(settled.body);
    expect(await balanceOf(stack, requirements.payTo)).toBe(before + BigInt(requirements.amount));
  });

  it("concurrent identical settles produce exactly one burn", async () => {
    const requirements = await requestOffer(daemon, "3000");
    const body = facilitatorBody(requirements, await signPermitPayment(stack, requirements, payerKey()));
    const results = await Promise.all(Array.from({ length: 5 }, () => settle(body)));
    const hashes = new Set(results.map((result) => result.body.transaction));
    expect(results.every((result) => result.body.success === true)).toBe(true);
    expect(hashes.size).toBe(1);
    expect(await balanceOf(stack, requirements.payTo)).toBe(BigInt(requirements.amount));
  });

  it("refuses a permit signature reused for a second offer", async () => {
    const first = await requestOffer(daemon);
    const payload = await signPermitPayment(stack, first, payerKey());
    const second = await requestOffer(daemon);
    const replay = facilitatorBody(second, { ...payload, challengeNonce: second.extra.challengeNonce });
    expect((await verify(replay)).body.isValid).toBe(false);
    expect((await settle(replay)).body.success).toBe(false);
    expect(await balanceOf(stack, second.payTo)).toBe(0n);
  });

  it("names each failed permit check", async () => {
    const requirements = await requestOffer(daemon, "1000");
    const payload = await signPermitPayment(stack, requirements, payerKey());
    const check = async (changed: object) => (await verify(facilitatorBody(requirements, { ...payload, ...changed }))).body.invalidReason;
    expect(await check({ permit: { ...payload.permit, value: "999" } })).toBe("permit_value_mismatch");
    expect(await check({ payer: stack.deployment.accounts.payer2.address })).toBe("invalid_permit_signature");
    expect(await check({ permit: { ...payload.permit, nonce: String(BigInt(payload.permit.nonce) + 5n) } })).toBe("invalid_permit_signature");
    const otherSig = await signPermitPayment(stack, requirements, payer2Key());
    expect(await check({ burnAuthSig: otherSig.burnAuthSig })).toBe("invalid_burn_authorization");
    const { permit, ...partial } = payload;
    expect(await check({})).toBeUndefined();
    expect((await verify(facilitatorBody(requirements, partial))).body.invalidReason).toBe("malformed_payload");
    expect(permit).toBeDefined();
  });

  it("refuses a stale token nonce and an insufficient balance", async () => {
    const stale = await requestOffer(daemon);
    const stalePayload = await signPermitPayment(stack, stale, payerKey());
    const used = await requestOffer(daemon);
    expect((await settle(facilitatorBody(used, await signPermitPayment(stack, used, payerKey())))).body.success).toBe(true);
    expect((await verify(facilitatorBody(stale, stalePayload))).body.invalidReason).toBe("stale_permit_nonce");

    const poor = stack.deployment.accounts.feeRecipient.privateKey;
    const tooMuch = await requestOffer(daemon, parseEther("1").toString());
    expect((await verify(facilitatorBody(tooMuch, await signPermitPayment(stack, tooMuch, poor)))).body.invalidReason).toBe("insufficient_balance");
  });
});

describe("requirements are untrusted", () => {
  it.each([
    ["amount", (r: any) => ({ ...r, amount: "1" })],
    ["payTo", (r: any) => ({ ...r, payTo: "0x000000000000000000000000000000000000dEaD" })],
    ["asset", (r: any) => ({ ...r, asset: "0x000000000000000000000000000000000000dEaD" })],
    ["network", (r: any) => ({ ...r, network: "eip155:1" })],
    ["challengeNonce", (r: any) => ({ ...r, extra: { ...r.extra, challengeNonce: `0x${"11".repeat(32)}` } })],
  ])("refuses tampered %s in the requirements and in the echoed offer", async (_field, tamper) => {
    const requirements = await requestOffer(daemon);
    const payload = await signPermitPayment(stack, requirements, payerKey());
    for (const body of [facilitatorBody(tamper(requirements), payload), facilitatorBody(requirements, payload, tamper(requirements))]) {
      expect((await verify(body)).body).toEqual({ isValid: false, invalidReason: "requirements_mismatch" });
      expect((await settle(body)).body).toMatchObject({ success: false, errorReason: "requirements_mismatch" });
    }
    expect(await balanceOf(stack, requirements.payTo)).toBe(0n);
  });

  it("refuses an unknown challenge and an unsupported scheme", async () => {
    const requirements = await requestOffer(daemon);
    const challengeNonce: Hex = `0x${"22".repeat(32)}`;
    const payload = { challengeNonce, burnTxHash: `0x${"33".repeat(32)}` };
    const unknown = { ...requirements, extra: { ...requirements.extra, challengeNonce } };
    expect((await verify(facilitatorBody(unknown, payload))).body.invalidReason).toBe("unknown_challenge");
    const otherScheme = { ...requirements, scheme: "exact" } as unknown as PaymentRequirements;
    expect((await verify(facilitatorBody(otherScheme, payload))).body.invalidReason).toBe("unsupported_scheme");
  });
});

describe("legacy direct /settle bodies", () => {
  it("settles { challengeNonce, burnTxHash }", async () => {
    const requirements = await requestOffer(daemon);
    const burnTxHash = await broadcastBurn(stack, requirements, payerKey());
    expect((await settle({ challengeNonce: requirements.extra.challengeNonce, burnTxHash })).body).toMatchObject({ success: true, transaction: burnTxHash });
  });

  it("settles { challengeNonce, payer, permit, burnAuthSig } and refuses a partial triple", async () => {
    const requirements = await requestOffer(daemon);
    const payload = await signPermitPayment(stack, requirements, payerKey());
    expect((await settle({ challengeNonce: payload.challengeNonce, payer: payload.payer, permit: payload.permit })).body.errorReason).toBe("malformed_payload");
    expect((await settle(payload)).body).toMatchObject({ success: true });
  });
});

describe("journal and logs", () => {
  it("journals every accepted entry before answering, and never logs a key, the admin token or a signature", async () => {
    const journal = await readFile(join(stack.dir, "main.journal.jsonl"), "utf8");
    const accepted = journal.split("\n").filter((line) => line.includes('"type":"accepted"'));
    expect(accepted.length).toBeGreaterThanOrEqual(5);
    const logs = daemon.logs.join("");
    for (const secret of [stack.env.SVC_TREASURY_PK!, stack.env.SVC_RELAYER_PK!, stack.env.SVC_ADMIN_TOKEN!]) {
      expect(logs.toLowerCase()).not.toContain(secret.replace(/^0x/, "").toLowerCase());
    }
    expect(logs).not.toMatch(/[0-9a-fA-F]{128}/);
    expect(logs).not.toContain(stack.deployment.accounts.treasury.address);
  });
});

// Last: it moves the chain's clock past the offer, which would expire every later offer on-chain.
describe("late inclusion", () => {
  it("refuses a burn included after the offer expired and lists it for the operator", async () => {
    const requirements = await requestOffer(daemon);
    await stack.client.request({ method: "evm_setNextBlockTimestamp" as never, params: [requirements.extra.expiresAt + 30] as never });
    const burnTxHash = await broadcastBurn(stack, requirements, payerKey());
    const body = facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash });
    expect((await settle(body)).body.errorReason).toBe("burn_after_expiry");
    const admin = await fetch(`${daemon.url}/admin/settlements?state=late_burn`, { headers: { authorization: `Bearer ${stack.env.SVC_ADMIN_TOKEN}` } });
    const listed = ((await admin.json()) as { settlements: { burnTxHash: string }[] }).settlements;
    expect(listed.map((entry) => entry.burnTxHash)).toContain(burnTxHash);
    expect(daemon.logs.some((line) => line.includes('"late_burn_refused"') && line.includes(burnTxHash))).toBe(true);
  });
});
