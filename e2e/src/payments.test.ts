/**
 * Paid requests across the three programs, each a real process: the stack, the facilitator CLI, the demo
 * provider and the headless agent CLI.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ledger } from "@svc/agent/testing";
import { startFacilitatorProcess, startProviderProcess, waitFor, type FacilitatorProcess, type ProviderProcess } from "@svc/anvil-fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSettlements } from "./harness/admin.js";
import { permitBurnCount, permitBurnsFor, tokenBalance } from "./harness/chain.js";
import { fetchOffer, payWith, permitPayload, selfTransferBurn } from "./harness/payerSignatures.js";
import { lastJson, runAgent } from "./harness/runAgent.js";
import { startStackProcess, type StackProcess } from "./harness/startStackProcess.js";

let stack: StackProcess;
let facilitator: FacilitatorProcess;
let provider: ProviderProcess;
const stateDirs: string[] = [];

beforeAll(async () => {
  stack = await startStackProcess();
  facilitator = await startFacilitatorProcess({ configPath: stack.facilitatorToml, env: stack.facilitatorEnv });
  provider = await startProviderProcess({ facilitatorUrl: facilitator.url, price: "1000" });
}, 120_000);

afterAll(async () => {
  await provider?.stop();
  await facilitator?.stop();
  await stack?.close();
  await Promise.all(stateDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const weather = () => `${provider.url}/weather`;
const adminToken = () => stack.facilitatorEnv.SVC_ADMIN_TOKEN ?? "";

async function agentEnv(overrides: Record<string, string> = {}, stateDir?: string): Promise<Record<string, string>> {
  const dir = stateDir ?? (await mkdtemp(join(tmpdir(), "e2e-agent-")));
  stateDirs.push(dir);
  return { SVC_PAYER_PK: stack.deployment.accounts.payer.privateKey, SVC_RPC_URL: stack.deployment.rpcUrl, SVC_STATE_DIR: dir, ...overrides };
}

/** The payments in the ledger of the state folder `env` names: id, status, whether signed, and the burn. */
async function ledgerPayments(env: Record<string, string>) {
  const entries = await new Ledger(env.SVC_STATE_DIR ?? "").entries();
  return entries.map((entry) => ({
    id: entry.id,
    status: entry.status,
    signed: entry.paymentHeader !== undefined,
    transaction: entry.transaction,
    challengeNonce: entry.challengeNonce,
  }));
}

describe("paying from the headless agent", () => {
  it.each([["permit"], ["self-transfer"]])("%s mode: served, accepted, then finalized with the treasury paid on-chain", async (mode) => {
    const treasury = stack.deployment.accounts.treasury.address;
    const before = await tokenBalance(stack, treasury);
    const run = await runAgent(["pay", weather(), "--json"], await agentEnv({ SVC_MODE: mode }));
    expect(run.code, run.stderr).toBe(0);
    const result = lastJson(run.stdout);
    expect(result).toMatchObject({ result: "paid", amount: "1010" });
    expect(JSON.stringify(result.resource)).toContain("temperature");
    await waitFor(async () => (await adminSettlements(facilitator.url, adminToken(), "finalized")).some((entry) => entry.burnTxHash === result.transaction), {
      timeoutMs: 150_000,
      what: "finalized",
    });
    await waitFor(async () => (await tokenBalance(stack, treasury)) === before + 1000n, { timeoutMs: 30_000, what: "treasury paid the list price" });
  });

  it("an identical re-sent payment within the offer's life is served again without a second burn", async () => {
    const offer = await fetchOffer(weather());
    const payload = await permitPayload(stack, offer, stack.deployment.accounts.payer2.privateKey);
    const burns = await permitBurnCount(stack);
    const first = await payWith(weather(), offer, payload);
    expect(first.status).toBe(200);
    const again = await payWith(weather(), offer, payload);
    expect(again).toEqual(first);
    expect(await permitBurnCount(stack)).toBe(burns + 1);
  });
});

describe("payer policy, before anything is signed", () => {
  it.each([
    ["host allowlist", { SVC_ALLOWED_HOSTS: "example.com" }],
    ["network pin", { SVC_ALLOWED_NETWORK: "eip155:1" }],
    ["token pin", { SVC_ALLOWED_TOKEN: "0x000000000000000000000000000000000000dEaD" }],
    ["per-payment cap", { SVC_MAX_PER_PAYMENT: "1009base" }],
    ["total cap", { SVC_MAX_TOTAL: "1000base" }],
  ])("declines on the %s with its own exit code and burns nothing", async (_rule, overrides) => {
    const burns = await permitBurnCount(stack);
    const run = await runAgent(["pay", weather(), "--json"], await agentEnv(overrides));
    expect(run.code).toBe(3);
    expect(lastJson(run.stdout).result).toBe("declined");
    expect(await permitBurnCount(stack)).toBe(burns);
  });

  it("two agent processes share one total cap: only one of them pays", async () => {
    const dir = await mkdtemp(join(tmpdir(), "e2e-shared-"));
    const env = await agentEnv({ SVC_MAX_TOTAL: "1500base" }, dir);
    const burns = await permitBurnCount(stack);
    const runs = await Promise.all([runAgent(["pay", weather(), "--json"], env), runAgent(["pay", weather(), "--json"], env)]);
    expect(runs.map((run) => run.code).sort()).toEqual([0, 3]);
    const outcomes = runs.map((run) => lastJson(run.stdout));
    expect(outcomes.map((outcome) => outcome.result).sort()).toEqual(["declined", "paid"]);
    const paid = outcomes.find((outcome) => outcome.result === "paid") ?? {};
    // The shared ledger holds the one payment, settled (the declined process reserved nothing), and the chain
    // its one burn: one for that offer and one in all.
    const [entry, ...others] = await ledgerPayments(env);
    expect(others).toEqual([]);
    expect(entry).toMatchObject({ id: paid.id, status: "settled", signed: true, transaction: paid.transaction });
    expect(await permitBurnsFor(stack, entry?.challengeNonce ?? "0x")).toEqual([paid.transaction]);
    expect(await permitBurnCount(stack)).toBe(burns + 1);
  });
});

describe("human approval", () => {
  const pending = async (env: Record<string, string>) => {
    let id: string | undefined;
    await waitFor(
      async () => {
        const listed = await runAgent(["approvals", "--json"], env);
        id = listed.stdout
          .trim()
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => (JSON.parse(line) as { id?: string }).id)
          .find(Boolean);
        return id !== undefined;
      },
      { timeoutMs: 30_000, what: "a pending approval" },
    );
    return String(id);
  };

  it("a payment above the threshold waits for a human: approved from another process, it pays", async () => {
    const env = await agentEnv({ SVC_APPROVE_ABOVE: "10base", SVC_APPROVAL_TIMEOUT_MS: "30000" });
    const burns = await permitBurnCount(stack);
    const paying = runAgent(["pay", weather(), "--json"], env);
    const id = await pending(env);
    expect((await runAgent(["approvals", "approve", id], env)).code).toBe(0);
    const run = await paying;
    expect(run.code, run.stdout).toBe(0);
    const paid = lastJson(run.stdout);
    expect(paid).toMatchObject({ result: "paid", id });
    // The approved payment is the ledger's only one, settled, and the chain holds exactly its one burn.
    const [entry, ...others] = await ledgerPayments(env);
    expect(others).toEqual([]);
    expect(entry).toMatchObject({ id, status: "settled", signed: true, transaction: paid.transaction });
    expect(await permitBurnsFor(stack, entry?.challengeNonce ?? "0x")).toEqual([paid.transaction]);
    expect(await permitBurnCount(stack)).toBe(burns + 1);
  });

  it("denied, it exits with the approval code and signs nothing", async () => {
    const env = await agentEnv({ SVC_APPROVE_ABOVE: "10base", SVC_APPROVAL_TIMEOUT_MS: "30000" });
    const burns = await permitBurnCount(stack);
    const paying = runAgent(["pay", weather(), "--json"], env);
    await runAgent(["approvals", "deny", await pending(env)], env);
    const run = await paying;
    expect(run.code).toBe(4);
    expect(lastJson(run.stdout)).toMatchObject({ result: "approval_denied", decision: "denied" });
    expect(await ledgerPayments(env)).toMatchObject([{ id: lastJson(run.stdout).id, status: "released", signed: false, transaction: undefined }]);
    expect(await permitBurnCount(stack)).toBe(burns);
  });

  it("nobody answers: declined when the approval times out", async () => {
    const env = await agentEnv({ SVC_APPROVE_ABOVE: "10base", SVC_APPROVAL_TIMEOUT_MS: "500" });
    const burns = await permitBurnCount(stack);
    const run = await runAgent(["pay", weather(), "--json"], env);
    expect(run.code).toBe(4);
    expect(lastJson(run.stdout)).toMatchObject({ result: "approval_denied", decision: "timed_out" });
    expect(await ledgerPayments(env)).toMatchObject([{ id: lastJson(run.stdout).id, status: "released", signed: false, transaction: undefined }]);
    expect(await permitBurnCount(stack)).toBe(burns);
  });
});

describe("what a provider must refuse", () => {
  const payer = () => stack.deployment.accounts.payer2.privateKey;

  it.each([
    ["amount", (offer: any) => ({ ...offer, amount: "1" })],
    ["payTo", (offer: any) => ({ ...offer, payTo: "0x000000000000000000000000000000000000dEaD" })],
    ["asset", (offer: any) => ({ ...offer, asset: "0x000000000000000000000000000000000000dEaD" })],
    ["network", (offer: any) => ({ ...offer, network: "eip155:1" })],
    ["challengeNonce", (offer: any) => ({ ...offer, extra: { ...offer.extra, challengeNonce: `0x${"11".repeat(32)}` } })],
  ])("a payment whose echoed offer has a tampered %s gets a 402 and burns nothing", async (_field, tamper) => {
    const offer = await fetchOffer(weather());
    const payload = await permitPayload(stack, offer, payer());
    const burns = await permitBurnCount(stack);
    expect((await payWith(weather(), tamper(offer), payload)).status).toBe(402);
    expect(await permitBurnCount(stack)).toBe(burns);
    expect(await tokenBalance(stack, offer.payTo)).toBe(0n);
  });

  it("a burn transaction reused for a second offer is refused", async () => {
    const first = await fetchOffer(weather());
    const burnTxHash = await selfTransferBurn(stack, first, payer());
    expect((await payWith(weather(), first, { challengeNonce: first.extra.challengeNonce, burnTxHash })).status).toBe(200);
    const second = await fetchOffer(weather());
    expect((await payWith(weather(), second, { challengeNonce: second.extra.challengeNonce, burnTxHash })).status).toBe(402);
  });

  it("a permit signature reused for a second offer is refused", async () => {
    const first = await fetchOffer(weather());
    const payload = await permitPayload(stack, first, payer());
    const second = await fetchOffer(weather());
    const burns = await permitBurnCount(stack);
    expect((await payWith(weather(), second, { ...payload, challengeNonce: second.extra.challengeNonce })).status).toBe(402);
    expect(await permitBurnCount(stack)).toBe(burns);
  });
});
