/**
 * Human approval across processes: a headless `pay` above SVC_APPROVE_ABOVE waits, and a second process
 * (`approvals approve|deny`, or the TUI rendered in this test process) answers it through the state folder;
 * without an answer it declines at SVC_APPROVAL_TIMEOUT_MS. Two paid requests in all.
 */
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { EXIT_APPROVAL_DENIED, EXIT_INTERRUPTED, EXIT_OK, Ledger, renderTui, runAgent, startAgent, waitForText } from "@svc/agent/testing";
import { startWorld, type World } from "@svc/anvil-fixtures";

let world: World;
beforeAll(async () => {
  world = await startWorld({ price: "1000", dirPrefix: "svc-agent-world-" });
});
afterAll(() => world?.close());

const NEEDS_APPROVAL = /^payment ([0-9a-f]{12}) needs approval/;

function payingAgent(state: string, extra: Record<string, string> = {}) {
  const env = world.agentEnv(state, { SVC_PAYER_PK: world.payerKey, SVC_APPROVE_ABOVE: "1000base", SVC_APPROVAL_TIMEOUT_MS: "60000", ...extra });
  return { env, agent: startAgent(["pay", "--json", world.weatherUrl], env) };
}

/** The state folder's ledger holds exactly payment `id`, settled, and the chain exactly its one burn. */
async function expectPaidOnce(state: string, id: string): Promise<void> {
  const [entry, ...others] = await new Ledger(join(world.dir, state)).entries();
  expect(others).toEqual([]);
  expect(entry).toMatchObject({ id, status: "settled" });
  const burns = await world.transfersTo(entry?.payTo ?? "0x");
  expect(burns.map((burn) => burn.transactionHash)).toEqual([entry?.transaction]);
}

describe("approval from another process", () => {
  it("pays once `approvals approve <id>` answers from a second process", async () => {
    const { env, agent } = payingAgent("approve-cli");
    const [, id = ""] = await agent.waitForStderr(NEEDS_APPROVAL);
    const listed = await runAgent(["approvals", "--json"], env);
    expect(JSON.parse(listed.stdout)).toMatchObject({ id, amount: "1010", threshold: "1000" });
    expect(await runAgent(["approvals", "approve", id], env)).toMatchObject({ code: 0, stdout: `approved ${id}` });
    expect(await agent.exited).toBe(EXIT_OK);
    expect(JSON.parse(agent.stdout.join(""))).toMatchObject({ result: "paid", id });
    await expectPaidOnce("approve-cli", id);
    expect(await runAgent(["approvals", "approve", id], env)).toMatchObject({ code: 1 });
  });

  it("declines with exit 4 after `approvals deny <id>`, releasing the spend and signing nothing", async () => {
    const { env, agent } = payingAgent("deny-cli");
    const [, id = ""] = await agent.waitForStderr(NEEDS_APPROVAL);
    expect((await runAgent(["approvals", "deny", id], env)).code).toBe(0);
    expect(await agent.exited).toBe(EXIT_APPROVAL_DENIED);
    expect(JSON.parse(agent.stdout.join(""))).toMatchObject({ result: "approval_denied", decision: "denied", id });
    const entry = await new Ledger(join(world.dir, "deny-cli")).get(id);
    expect(entry).toMatchObject({ status: "released" });
    expect(entry.paymentHeader).toBeUndefined();
    expect(await world.transfersTo(entry.payTo)).toEqual([]);
  });

  it("declines with exit 4 when nobody answers within SVC_APPROVAL_TIMEOUT_MS", async () => {
    const { agent } = payingAgent("timeout", { SVC_APPROVAL_TIMEOUT_MS: "300" });
    expect(await agent.exited).toBe(EXIT_APPROVAL_DENIED);
    const outcome = JSON.parse(agent.stdout.join("")) as { id: string };
    expect(outcome).toMatchObject({ result: "approval_denied", decision: "timed_out" });
    expect(await new Ledger(join(world.dir, "timeout")).get(outcome.id)).toMatchObject({ status: "released" });
  });

  it("withdraws the request and releases the spend when the waiting agent is interrupted", async () => {
    const { env, agent } = payingAgent("interrupted");
    const [, id = ""] = await agent.waitForStderr(NEEDS_APPROVAL);
    agent.kill("SIGINT");
    expect(await agent.exited).toBe(EXIT_INTERRUPTED);
    expect(JSON.parse(agent.stdout.join(""))).toMatchObject({ result: "error", error: "ApprovalInterruptedError" });
    expect(await new Ledger(join(world.dir, "interrupted")).get(id)).toMatchObject({ status: "released" });
    expect((await runAgent(["approvals"], env)).stdout).toBe("no pending approvals");
  });

  it("pays once a human approves in the TUI running beside the headless agent", async () => {
    const { env, agent } = payingAgent("approve-tui");
    const [, id = ""] = await agent.waitForStderr(NEEDS_APPROVAL);
    const tui = renderTui(env);
    try {
      await waitForText(tui.lastFrame, `› ${id}  0.00000000000000101 zFIX to ${new URL(world.weatherUrl).host}`);
      tui.stdin.write("a");
      await waitForText(tui.lastFrame, "[y] yes · [n] no, back");
      tui.stdin.write("y");
      expect(await agent.exited).toBe(EXIT_OK);
      expect(JSON.parse(agent.stdout.join(""))).toMatchObject({ result: "paid", id });
      await expectPaidOnce("approve-tui", id);
      await waitForText(tui.lastFrame, `approved ${id}`, "Pending approvals from other agents: none");
    } finally {
      tui.unmount();
    }
  });
});
