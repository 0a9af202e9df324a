/**
 * Restarts, crashes and configurations across real processes: the facilitator stopped or killed mid-way,
 * the provider restarted with offers in flight, a non-local facilitator, an offer without the gasless path,
 * and the split fee mode.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFacilitatorProcess, startProcess, startProviderProcess, waitFor } from "@svc/anvil-fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSettlements, finalizePasses } from "./harness/admin.js";
import { chainClient, mintCount, permitBurnCount, tokenBalance } from "./harness/chain.js";
import { writeFacilitatorConfig } from "./harness/facilitatorConfig.js";
import { fetchOffer, payWith, permitPayload } from "./harness/payerSignatures.js";
import { REPO_ROOT } from "./harness/repoRoot.js";
import { lastJson, runAgent } from "./harness/runAgent.js";
import { startStackProcess, type StackProcess } from "./harness/startStackProcess.js";

let stack: StackProcess;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  stack = await startStackProcess();
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await stack?.close();
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function agentEnv(overrides: Record<string, string> = {}): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), "e2e-agent-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return { SVC_PAYER_PK: stack.deployment.accounts.payer.privateKey, SVC_RPC_URL: stack.deployment.rpcUrl, SVC_STATE_DIR: dir, ...overrides };
}

const adminToken = () => stack.facilitatorEnv.SVC_ADMIN_TOKEN ?? "";
const treasury = () => stack.deployment.accounts.treasury.address;

describe("facilitator restarts", () => {
  it("SIGTERM with accepted work pending, restart: finalized exactly once", async () => {
    const config = await writeFacilitatorConfig(stack, "sigterm", { daemon: { finalize_interval_ms: 600_000 } });
    const first = await startFacilitatorProcess({ configPath: config, env: stack.facilitatorEnv });
    const provider = await startProviderProcess({ facilitatorUrl: first.url, price: "2000" });
    const paid = lastJson((await runAgent(["pay", `${provider.url}/weather`, "--json"], await agentEnv())).stdout);
    expect(paid.result).toBe("paid");
    await provider.stop();
    expect(await first.stop("SIGTERM")).toBe(0);
    const mints = await mintCount(stack, treasury());

    const fast = await writeFacilitatorConfig(stack, "sigterm", { daemon: { finalize_interval_ms: 1000 } });
    const second = await startFacilitatorProcess({ configPath: fast, env: stack.facilitatorEnv });
    cleanups.push(() => second.stop());
    await waitFor(async () => (await adminSettlements(second.url, adminToken(), "finalized")).some((entry) => entry.burnTxHash === paid.transaction), {
      timeoutMs: 150_000,
      what: "finalized",
    });
    // Two more complete passes over the finalized entry: a second mint would have been submitted by then.
    const passes = await finalizePasses(second.url, adminToken());
    await waitFor(async () => (await finalizePasses(second.url, adminToken())) >= passes + 2, { timeoutMs: 30_000, what: "two more finalize passes" });
    expect(await mintCount(stack, treasury())).toBe(mints + 1);
  });

  it("SIGKILL during a permit settle, restart, payer resend: served, and no second burn", async () => {
    const port = await freePort();
    const config = await writeFacilitatorConfig(stack, "sigkill", { listen: { port }, settlement: { permit_receipt_timeout_ms: 60_000 } });
    const first = await startFacilitatorProcess({ configPath: config, env: stack.facilitatorEnv });
    const provider = await startProviderProcess({ facilitatorUrl: first.url, price: "3000" });
    cleanups.push(() => provider.stop());
    const client = chainClient(stack);
    const burns = await permitBurnCount(stack);
    const env = await agentEnv({ SVC_TIMEOUT_MS: "60000" });
    await client.request({ method: "evm_setAutomine" as never, params: [false] as never });
    let lost: Awaited<ReturnType<typeof runAgent>>;
    try {
      const paying = runAgent(["pay", `${provider.url}/weather`, "--json"], env);
      // The relayed burn sits in the mempool while /settle waits for its receipt: kill the facilitator now.
      await waitFor(async () => first.lines.some((line) => line.includes('"permit_burn_broadcast"')), { timeoutMs: 30_000, what: "burn broadcast" });
      await first.stop("SIGKILL");
      lost = await paying;
    } finally {
      await client.request({ method: "evm_setAutomine" as never, params: [true] as never });
      await client.request({ method: "evm_mine" as never, params: [] as never });
    }
    expect(lost.code).not.toBe(0);
    const id = String(lastJson(lost.stdout).id);

    const second = await startFacilitatorProcess({ configPath: config, env: stack.facilitatorEnv });
    cleanups.push(() => second.stop());
    const resent = await runAgent(["resend", id, "--json"], env);
    expect(resent.code, resent.stdout + resent.stderr).toBe(0);
    expect(lastJson(resent.stdout).result).toBe("paid");
    expect(await permitBurnCount(stack)).toBe(burns + 1);
  });
});

describe("provider restart", () => {
  it("offers in flight fail the match after a restart and the client pays on a fresh 402", async () => {
    const facilitator = await startFacilitatorProcess({ configPath: await writeFacilitatorConfig(stack, "provider-restart"), env: stack.facilitatorEnv });
    cleanups.push(() => facilitator.stop());
    const first = await startProviderProcess({ facilitatorUrl: facilitator.url, price: "1000" });
    const url = `${first.url}/weather`;
    const offer = await fetchOffer(url);
    const payload = await permitPayload(stack, offer, stack.deployment.accounts.payer2.privateKey);
    await first.stop();
    const port = Number(new URL(first.url).port);
    const second = await startProviderProcess({ facilitatorUrl: facilitator.url, price: "1000", port });
    cleanups.push(() => second.stop());
    const burns = await permitBurnCount(stack);
    expect((await payWith(url, offer, payload)).status).toBe(402);
    expect(await permitBurnCount(stack)).toBe(burns);
    const run = await runAgent(["pay", url, "--json"], await agentEnv());
    expect(run.code, run.stdout).toBe(0);
  });
});

describe("configurations", () => {
  it("a non-local facilitator refuses /challenge, /verify and /settle, and the provider exits with a clear error", async () => {
    // Outside profile local the money endpoints serve only configured providers (the key's SHA-256 below).
    const providerKey = "e2e-testnet-provider-key-0123456789";
    const providers = { e2e: { key_sha256: createHash("sha256").update(providerKey).digest("hex") } };
    const config = await writeFacilitatorConfig(stack, "testnet", { profile: "testnet", fee: null, providers });
    const env = {
      ...stack.facilitatorEnv,
      SVC_TREASURY_PK: `0x${"5a".repeat(32)}`,
      SVC_RELAYER_PK: `0x${"6b".repeat(32)}`,
      SVC_MINTER_PK: `0x${"7c".repeat(32)}`,
    };
    const facilitator = await startFacilitatorProcess({ configPath: config, env });
    cleanups.push(() => facilitator.stop());
    const post = (path: string, body: unknown) =>
      fetch(`${facilitator.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${providerKey}` },
        body: JSON.stringify(body),
      });
    const challenge = await post("/challenge", { amount: "1000" });
    expect(challenge.status).toBe(403);
    expect(((await challenge.json()) as { error: string }).error).toMatch(/^payment acceptance is disabled for profile testnet/);
    const legacy = { challengeNonce: `0x${"11".repeat(32)}`, burnTxHash: `0x${"22".repeat(32)}` };
    expect(await (await post("/verify", legacy)).json()).toMatchObject({ isValid: false, invalidReason: "profile_unsupported" });
    expect(await (await post("/settle", legacy)).json()).toMatchObject({ success: false, errorReason: "profile_unsupported" });

    const provider = startProcess({
      command: process.execPath,
      args: [join(REPO_ROOT, "provider-demo", "dist", "server.js")],
      env: { PATH: process.env.PATH, FACILITATOR_URL: facilitator.url, PORT: "0" },
      ready: () => false,
    });
    await expect(provider).rejects.toThrow(/exited with 1/);
  });

  it("an expired offer is refused and burns nothing", async () => {
    const facilitator = await startFacilitatorProcess({
      configPath: await writeFacilitatorConfig(stack, "short-ttl", { settlement: { challenge_ttl_seconds: 2 } }),
      env: stack.facilitatorEnv,
    });
    cleanups.push(() => facilitator.stop());
    const provider = await startProviderProcess({ facilitatorUrl: facilitator.url, price: "1000" });
    cleanups.push(() => provider.stop());
    const url = `${provider.url}/weather`;
    const offer = await fetchOffer(url);
    const payload = await permitPayload(stack, offer, stack.deployment.accounts.payer2.privateKey);
    // Time itself must pass here: the offer is refused only once the clock is past its expiry.
    await waitFor(async () => Math.floor(Date.now() / 1000) > Number(offer.extra.expiresAt), { timeoutMs: 10_000, what: "the offer's expiry" });
    const burns = await permitBurnCount(stack);
    expect((await payWith(url, offer, payload)).status).toBe(402);
    expect(await permitBurnCount(stack)).toBe(burns);
    expect(await tokenBalance(stack, offer.payTo)).toBe(0n);
  });

  it("permit mode against an offer without the gasless helper: the agent refuses, never pays gas itself", async () => {
    const facilitator = await startFacilitatorProcess({
      configPath: await writeFacilitatorConfig(stack, "no-helper", { settlement: { permit_burner: null } }),
      env: stack.facilitatorEnv,
    });
    cleanups.push(() => facilitator.stop());
    const provider = await startProviderProcess({ facilitatorUrl: facilitator.url, price: "1000" });
    cleanups.push(() => provider.stop());
    const payer = stack.deployment.accounts.payer.address;
    const before = await tokenBalance(stack, payer);
    const run = await runAgent(["pay", `${provider.url}/weather`, "--json"], await agentEnv({ SVC_MODE: "permit" }));
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBe(5);
    expect(await tokenBalance(stack, payer)).toBe(before);
  });

  it("split fee mode pays the payee and the fee recipient through the splitter", async () => {
    const splitter = stack.deployment.feeSplitter;
    const config = await writeFacilitatorConfig(stack, "split", {
      settlement: { treasury: splitter },
      fee: { bps: stack.deployment.feeSplit.bps, min_per_payment: 0, charge_to: "payer", splitter, recipient: null },
      daemon: { finalize_interval_ms: 1000 },
    });
    const facilitator = await startFacilitatorProcess({ configPath: config, env: stack.facilitatorEnv });
    cleanups.push(() => facilitator.stop());
    const provider = await startProviderProcess({ facilitatorUrl: facilitator.url, price: "100000" });
    cleanups.push(() => provider.stop());
    const payee = stack.deployment.feeSplit.payee;
    const feeRecipient = stack.deployment.feeSplit.feeRecipient;
    const [payeeBefore, feeBefore] = await Promise.all([tokenBalance(stack, payee), tokenBalance(stack, feeRecipient)]);
    const run = await runAgent(["pay", `${provider.url}/weather`, "--json"], await agentEnv());
    expect(run.code, run.stdout).toBe(0);
    const minted = 101_000n;
    const fee = (minted * BigInt(stack.deployment.feeSplit.bps)) / 10_000n;
    await waitFor(async () => (await tokenBalance(stack, payee)) === payeeBefore + minted - fee, { timeoutMs: 150_000, what: "payee paid" });
    expect(await tokenBalance(stack, feeRecipient)).toBe(feeBefore + fee);
  });
});
