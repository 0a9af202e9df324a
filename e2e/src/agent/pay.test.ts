/**
 * `pay` and `quote` as real processes against the real provider, facilitator and anvil stack: both payment
 * modes, cap refusals, two processes racing for the last of SVC_MAX_TOTAL, and the host allowlist refusing
 * before any request leaves. Three paid requests in all.
 */
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { EXIT_DECLINED, EXIT_OK, Ledger, runAgent, startTestServer } from "@svc/agent/testing";
import { startWorld, type World } from "@svc/anvil-fixtures";

let world: World;
beforeAll(async () => {
  world = await startWorld({ price: "1000", dirPrefix: "svc-agent-world-" });
});
afterAll(() => world?.close());

/** The one JSON line of a `--json` run. */
function result(stdout: string): Record<string, unknown> {
  const lines = stdout.split("\n").filter((line) => line !== "");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? "") as Record<string, unknown>;
}

describe("quote", () => {
  it("shows the offer without a key: amount with the payer-charged fee, token, network, expiry, paths", async () => {
    const run = await runAgent(["quote", world.weatherUrl], world.agentEnv("quote"));
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toContain("amount   0.00000000000000101 zFIX (1010 base units)");
    expect(run.stdout).toContain("fee      0.00000000000000001 zFIX (10 base units) (100 bps), included in the amount");
    expect(run.stdout).toContain(`token    ${world.stack.deployment.token}`);
    expect(run.stdout).toContain("paths    permit (gasless) or self-transfer");
    expect(run.stdout).toMatch(/expires {2}\S+ \(in \d+ s\)/);
  });
});

describe("pay", () => {
  it.each(["permit", "self-transfer"] as const)("pays in %s mode: one burn of the quoted amount, recorded as settled", async (mode) => {
    const state = `pay-${mode}`;
    const balanceBefore = await world.balanceOf(world.stack.deployment.accounts.payer.address);
    const run = await runAgent(["pay", "--json", world.weatherUrl], world.agentEnv(state, { SVC_PAYER_PK: world.payerKey, SVC_MODE: mode }));
    expect(run.code).toBe(EXIT_OK);
    const paid = result(run.stdout);
    expect(paid).toMatchObject({ result: "paid", amount: "1010", network: "eip155:31337", resource: { status: 200 } });
    expect(JSON.parse(String((paid.resource as { body: string }).body))).toHaveProperty("conditions");

    const entry = await new Ledger(join(world.dir, state)).get(String(paid.id));
    expect(entry).toMatchObject({ status: "settled", mode, amount: 1010n, transaction: paid.transaction });
    const burns = await world.transfersTo(entry.payTo);
    expect(burns).toEqual([{ transactionHash: paid.transaction, value: 1010n }]);
    if (mode === "self-transfer") expect(entry.burnTxHash).toBe(paid.transaction);
    expect(await world.balanceOf(world.stack.deployment.accounts.payer.address)).toBe(balanceBefore - 1010n);
  });

  it("declines above SVC_MAX_PER_PAYMENT before anything is reserved or signed", async () => {
    const run = await runAgent(
      ["pay", "--json", world.weatherUrl],
      world.agentEnv("per-payment", { SVC_PAYER_PK: world.payerKey, SVC_MAX_PER_PAYMENT: "1009base" }),
    );
    expect(run.code).toBe(EXIT_DECLINED);
    expect(result(run.stdout)).toMatchObject({ result: "declined", reason: "above_max_per_payment", amount: "1010" });
    expect(await new Ledger(join(world.dir, "per-payment")).entries()).toEqual([]);
  });

  it("declines what would exceed SVC_MAX_TOTAL on top of earlier spend", async () => {
    const run = await runAgent(["pay", "--json", world.weatherUrl], world.agentEnv("pay-permit", { SVC_PAYER_PK: world.payerKey, SVC_MAX_TOTAL: "2019base" }));
    expect(run.code).toBe(EXIT_DECLINED);
    expect(result(run.stdout)).toMatchObject({ result: "declined", reason: "above_max_total" });
    // A human reads the refusal and the ledger in token units; --json keeps base units.
    expect(String(result(run.stdout).message)).toContain(
      "above SVC_MAX_TOTAL (0.000000000000002019 zFIX); already spent or reserved: 0.00000000000000101 zFIX",
    );
    const ledger = await runAgent(["ledger", "--json"], world.agentEnv("pay-permit", { SVC_MAX_TOTAL: "2019base" }));
    expect(result(ledger.stdout)).toMatchObject({ type: "spend", settled: "1010", total: "1010", cap: "2019", remaining: "1009" });
    const text = await runAgent(["ledger"], world.agentEnv("pay-permit", { SVC_MAX_TOTAL: "2019base" }));
    expect(text.stdout).toContain("total 0.00000000000000101 zFIX of 0.000000000000002019 zFIX, remaining 0.000000000000001009 zFIX");
    const both = await runAgent(["ledger", "--base-units"], world.agentEnv("pay-permit", { SVC_MAX_TOTAL: "2019base" }));
    expect(both.stdout).toContain("remaining 0.000000000000001009 zFIX (1009 base units)");
  });

  it("lets only one of two racing processes spend the last of SVC_MAX_TOTAL", async () => {
    const env = world.agentEnv("race", { SVC_PAYER_PK: world.payer2Key, SVC_MAX_TOTAL: "1010base" });
    const runs = await Promise.all([runAgent(["pay", "--json", world.weatherUrl], env), runAgent(["pay", "--json", world.weatherUrl], env)]);
    expect(runs.map((run) => run.code).sort()).toEqual([EXIT_OK, EXIT_DECLINED]);
    expect(runs.map((run) => result(run.stdout).result).sort()).toEqual(["declined", "paid"]);
    expect(runs.map((run) => result(run.stdout).reason).filter(Boolean)).toEqual(["above_max_total"]);
    const entries = await new Ledger(join(world.dir, "race")).entries();
    expect(entries.map((entry) => entry.status)).toEqual(["settled"]);
  });
});

describe("an offer without the gasless path", () => {
  it("is declined in permit mode, never paid by a gas-paying transfer instead", async () => {
    const extra = await world.startProviderWithoutPermit();
    try {
      const quote = await runAgent(["quote", extra.weatherUrl], world.agentEnv("no-helper"));
      expect(quote.stdout).toContain("paths    self-transfer only");
      expect(quote.stdout).toContain("policy   declined (permit_unavailable)");
      const balanceBefore = await world.balanceOf(world.stack.deployment.accounts.payer.address);
      const run = await runAgent(["pay", "--json", extra.weatherUrl], world.agentEnv("no-helper", { SVC_PAYER_PK: world.payerKey }));
      expect(run.code).toBe(EXIT_DECLINED);
      expect(result(run.stdout)).toMatchObject({ result: "declined", reason: "permit_unavailable" });
      expect(await world.balanceOf(world.stack.deployment.accounts.payer.address)).toBe(balanceBefore);
      expect(await new Ledger(join(world.dir, "no-helper")).entries()).toEqual([]);
    } finally {
      await extra.stop();
    }
  });
});

describe("host allowlist", () => {
  it("refuses a host off the allowlist before any request leaves, and re-checks every redirect hop", async () => {
    const counting = await startTestServer((_request, response) => response.end("should never be asked"));
    const redirecting = await startTestServer((_request, response) => {
      response.writeHead(302, { location: `http://localhost:${counting.port}/weather` }).end();
    });
    try {
      const env = world.agentEnv("allowlist", { SVC_PAYER_PK: world.payerKey, SVC_ALLOWED_HOSTS: "127.0.0.1" });
      const direct = await runAgent(["pay", "--json", `http://localhost:${counting.port}/weather`], env);
      expect(direct.code).toBe(EXIT_DECLINED);
      expect(result(direct.stdout)).toMatchObject({ result: "declined", reason: "host_not_allowed" });
      const redirected = await runAgent(["pay", "--json", `${redirecting.origin}/weather`], env);
      expect(redirected.code).toBe(EXIT_DECLINED);
      expect(result(redirected.stdout)).toMatchObject({ result: "declined", reason: "host_not_allowed" });
      expect(redirecting.requests).toHaveLength(1);
      expect(counting.requests).toEqual([]);
    } finally {
      await Promise.all([counting.close(), redirecting.close()]);
    }
  });
});
