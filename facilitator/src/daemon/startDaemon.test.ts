/**
 * The daemon's lifecycle against a real stack: startup rules, profiles, limits, restart recovery from the
 * journal, and the pending-burn path with anvil's automine switched off.
 */
import { createHash } from "node:crypto";
import { permitBurnerAbi } from "@svc/scheme";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdminTokenRequiredError } from "../config/errors.js";
import { DevelopmentKeyRefusedError } from "../config/errors.js";
import {
  balanceOf,
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  signPermitPayment,
  startTestDaemon,
  startTestStack,
  type TestStack,
} from "../testing/localFacilitator.js";

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.close();
});

const adminGet = (url: string, token: string | undefined) => fetch(url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

describe("startup rules", () => {
  it("refuses an unset profile without SVC_ADMIN_TOKEN, naming the variable only", async () => {
    const env = { SVC_TREASURY_PK: `0x${"5a".repeat(32)}`, SVC_RELAYER_PK: `0x${"6b".repeat(32)}` };
    const error = await startTestDaemon(stack, "unset-profile", { profile: null, fee: null }, env).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdminTokenRequiredError);
    expect(String(error)).toContain("SVC_ADMIN_TOKEN");
  });

  it("refuses the well-known dev keys when a local predicate is missing (unset profile is never inferred)", async () => {
    const error = await startTestDaemon(stack, "unset-profile-devkeys", { profile: null }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DevelopmentKeyRefusedError);
    expect(String(error)).toMatch(/profile/);
    expect(String(error)).not.toContain(stack.env.SVC_TREASURY_PK!.slice(2));
  });
});

describe("non-local profile", () => {
  it("serves no kinds and refuses /challenge, /verify and /settle", async () => {
    const env = {
      ...stack.env,
      SVC_TREASURY_PK: `0x${"5a".repeat(32)}`,
      SVC_RELAYER_PK: `0x${"6b".repeat(32)}`,
      // Profiles testnet and production refuse to start without a minter key of its own.
      SVC_MINTER_PK: `0x${"7c".repeat(32)}`,
    };
    // Outside profile local a provider table is required; its key authenticates the calls below.
    const providerKey = "testnet-provider-key-0123456789abcdef";
    const providers = { shop: { key_sha256: createHash("sha256").update(providerKey).digest("hex") } };
    const daemon = await startTestDaemon(stack, "testnet", { profile: "testnet", fee: null, providers }, env);
    const authorization = { authorization: `Bearer ${providerKey}` };
    try {
      expect(await (await fetch(`${daemon.url}/supported`)).json()).toEqual({ kinds: [], extensions: [], signers: {} });
      expect((await postJson(`${daemon.url}/challenge`, { amount: "1000" })).status).toBe(401);
      const challenge = await postJson(`${daemon.url}/challenge`, { amount: "1000" }, authorization);
      expect(challenge.status).toBe(403);
      expect(challenge.body.error).toMatch(/^payment acceptance is disabled for profile testnet/);
      const body = { challengeNonce: `0x${"11".repeat(32)}`, burnTxHash: `0x${"22".repeat(32)}` };
      expect((await postJson(`${daemon.url}/verify`, body, authorization)).body).toEqual({ isValid: false, invalidReason: "profile_unsupported" });
      expect((await postJson(`${daemon.url}/settle`, body, authorization)).body).toMatchObject({ success: false, errorReason: "profile_unsupported" });
    } finally {
      await daemon.stop();
    }
  });
});

describe("limits and admin", () => {
  it("answers 503 at max_open_challenges and 429 past the per-key issuance rate", async () => {
    const capped = await startTestDaemon(stack, "capped", { daemon: { max_open_challenges: 1 } });
    try {
      expect((await postJson(`${capped.url}/challenge`, { amount: "5" })).status).toBe(200);
      expect((await postJson(`${capped.url}/challenge`, { amount: "5" })).status).toBe(503);
    } finally {
      await capped.stop();
    }
    const limited = await startTestDaemon(stack, "limited", { daemon: { challenge_per_key_per_min: 1 } });
    try {
      expect((await postJson(`${limited.url}/challenge`, { amount: "5" })).status).toBe(200);
      expect((await postJson(`${limited.url}/challenge`, { amount: "5" })).status).toBe(429);
      const locked = await adminGet(`${limited.url}/admin/challenges`, undefined);
      const wrong = await adminGet(`${limited.url}/admin/challenges`, "not-the-admin-token-at-all");
      expect([locked.status, wrong.status]).toEqual([401, 401]);
      expect(await locked.text()).toBe(await wrong.text());
      const ok = await adminGet(`${limited.url}/admin/challenges`, stack.env.SVC_ADMIN_TOKEN);
      expect(await ok.json()).toMatchObject({ open: 1, maxOpen: 1000 });
    } finally {
      await limited.stop();
    }
  });
});

describe("restart", () => {
  it("restores accepted entries from the journal; an identical re-send still gets its accepted result", async () => {
    const first = await startTestDaemon(stack, "restart");
    const requirements = await requestOffer(first);
    const burnTxHash = await broadcastBurn(stack, requirements, stack.deployment.accounts.payer.privateKey);
    const body = facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash });
    const accepted = (await postJson(`${first.url}/settle`, body)).body;
    expect(accepted.success).toBe(true);
    await first.stop();

    const second = await startTestDaemon(stack, "restart");
    try {
      const listed = (await (await adminGet(`${second.url}/admin/settlements?state=accepted`, stack.env.SVC_ADMIN_TOKEN)).json()) as {
        settlements: { burnTxHash: string }[];
      };
      expect(listed.settlements.map((entry) => entry.burnTxHash)).toEqual([burnTxHash]);
      expect((await postJson(`${second.url}/settle`, body)).body).toEqual(accepted);
      expect(second.logs.some((line) => line.includes('"journal_restored"') && line.includes('"pending":1'))).toBe(true);
    } finally {
      await second.stop();
    }
  });
});

describe("pending burn", () => {
  it("answers pending_burn past the polling bound; after mining (and a restart) the re-send settles with one burn", async () => {
    const first = await startTestDaemon(stack, "pending", { settlement: { permit_receipt_timeout_ms: 300 } });
    const requirements = await requestOffer(first, "4000");
    const body = facilitatorBody(requirements, await signPermitPayment(stack, requirements, stack.deployment.accounts.payer2.privateKey));
    await stack.client.request({ method: "evm_setAutomine" as never, params: [false] as never });
    try {
      const pending = (await postJson(`${first.url}/settle`, body)).body;
      expect(pending).toMatchObject({ success: false, errorReason: "pending_burn" });
      expect(pending.transaction).toMatch(/^0x[0-9a-f]{64}$/);
      // The daemon goes away before the burn is mined; its intent is in the journal.
      await first.stop();
    } finally {
      await stack.client.request({ method: "evm_setAutomine" as never, params: [true] as never });
      await stack.client.request({ method: "evm_mine" as never, params: [] as never });
    }
    const second = await startTestDaemon(stack, "pending");
    try {
      const settled = (await postJson(`${second.url}/settle`, body)).body;
      expect(settled).toMatchObject({ success: true, extra: { phase: "accepted" } });
      expect((await postJson(`${second.url}/settle`, body)).body).toEqual(settled);
      const burns = await stack.client.getContractEvents({
        address: stack.deployment.permitBurner,
        abi: permitBurnerAbi,
        eventName: "BurnExecuted",
        args: { challengeNonce: requirements.extra.challengeNonce },
        fromBlock: 0n,
      });
      expect(burns).toHaveLength(1);
      expect(await balanceOf(stack, requirements.payTo)).toBe(BigInt(requirements.amount));
    } finally {
      await second.stop();
    }
  });
});
