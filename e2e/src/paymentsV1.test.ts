/**
 * The older protocol version end to end (`STACK_PROTOCOL=v1`: a v1 token without permit, the v1 verifier and
 * its two-field `Teleport`), every program a real process: the facilitator derives v1 burn addresses, offers
 * self-transfer only, and the agent pays and the treasury is paid; a permit-mode agent refuses the offer.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFacilitatorProcess, startProviderProcess, waitFor, type FacilitatorProcess, type ProviderProcess } from "@svc/anvil-fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSettlements } from "./harness/admin.js";
import { mintCount, tokenBalance } from "./harness/chain.js";
import { fetchOffer } from "./harness/payerSignatures.js";
import { lastJson, runAgent } from "./harness/runAgent.js";
import { startStackProcess, type StackProcess } from "./harness/startStackProcess.js";

let stack: StackProcess;
let facilitator: FacilitatorProcess;
let provider: ProviderProcess;
const stateDirs: string[] = [];

beforeAll(async () => {
  stack = await startStackProcess({ protocol: "v1" });
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

async function agentEnv(overrides: Record<string, string>): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), "e2e-agent-v1-"));
  stateDirs.push(dir);
  return { SVC_PAYER_PK: stack.deployment.accounts.payer.privateKey, SVC_RPC_URL: stack.deployment.rpcUrl, SVC_STATE_DIR: dir, ...overrides };
}

describe("zERC20 v1", () => {
  it("the stack and the facilitator run v1, and the offer has no gasless path", async () => {
    expect(stack.deployment.protocol).toBe("zerc20-v1");
    const started = facilitator.lines
      .flatMap((line) => (line.startsWith("{") ? [JSON.parse(line) as Record<string, unknown>] : []))
      .find((event) => event.event === "started");
    expect(started).toMatchObject({ protocol: "zerc20-v1", permit_path: false });
    const offer = await fetchOffer(weather());
    expect(offer.extra.helper).toBeUndefined();
    expect(offer.extra.decimals).toBe(18);
  });

  it("self-transfer: served, accepted, then finalized with the treasury paid by a v1 mint", async () => {
    const treasury = stack.deployment.accounts.treasury.address;
    const [before, mintsBefore] = [await tokenBalance(stack, treasury), await mintCount(stack, treasury)];
    const run = await runAgent(["pay", weather(), "--json"], await agentEnv({ SVC_MODE: "self-transfer" }));
    expect(run.code, run.stderr).toBe(0);
    const result = lastJson(run.stdout);
    expect(result).toMatchObject({ result: "paid", amount: "1010" });
    await waitFor(
      async () =>
        (await adminSettlements(facilitator.url, stack.facilitatorEnv.SVC_ADMIN_TOKEN ?? "", "finalized")).some(
          (entry) => entry.burnTxHash === result.transaction,
        ),
      { timeoutMs: 150_000, what: "finalized" },
    );
    await waitFor(async () => (await tokenBalance(stack, treasury)) === before + 1000n, { timeoutMs: 30_000, what: "treasury paid the list price" });
    expect(await mintCount(stack, treasury)).toBe(mintsBefore + 1);
  });

  it("permit mode: the agent refuses the offer without a helper and pays nothing", async () => {
    const before = await tokenBalance(stack, stack.deployment.accounts.payer.address);
    const run = await runAgent(["pay", weather(), "--json"], await agentEnv({ SVC_MODE: "permit" }));
    expect(run.code).toBe(3);
    expect(lastJson(run.stdout).result).toBe("declined");
    expect(run.stdout).toContain("permit_unavailable");
    expect(await tokenBalance(stack, stack.deployment.accounts.payer.address)).toBe(before);
  });
});
