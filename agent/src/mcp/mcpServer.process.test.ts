/**
 * `svc-agent mcp` as a real process driven by the MCP SDK's own client over stdio, against the real provider,
 * facilitator and anvil stack: a model's tool call pays for `GET /weather`; an MCP agent and a CLI agent
 * racing for one SVC_MAX_TOTAL never overspend; a payment that needs approval answers at once (the SDK's default
 * request timeout applies) and `payment_status` waits for the decision given in the TUI supervisor or by the CLI
 * (with progress notifications), paying exactly once however often and from however many sessions it is asked;
 * a denied or expired one comes back as the reason; `payer_info` tells the payer, its balance and limits; and
 * nothing a tool returns carries the key, a signature or a stored payment header.
 */
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { render } from "ink-testing-library";
import { createElement } from "react";
import { formatUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { decideApproval } from "../approvals/decideApproval.js";
import { listPendingApprovals } from "../approvals/listPendingApprovals.js";
import { Ledger } from "../ledger/ledger.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { AGENT_CLI } from "../testing/builtAgent.js";
import { runAgent } from "../testing/runAgent.js";
import { startPaymentWorld, type PaymentWorld } from "../testing/startPaymentWorld.js";
import { waitForFrame, waitForText } from "../testing/waitForFrame.js";
import { App } from "../ui/components/App.js";
import { createTuiDependencies } from "../ui/tuiDependencies.js";
import { MCP_TOOLS } from "./createAgentMcpServer.js";

let world: PaymentWorld;
const clients: Client[] = [];
/** Every text a tool returned, scanned for secrets at the end. */
const seen: string[] = [];

beforeAll(async () => {
  world = await startPaymentWorld({ price: "1000" });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await world?.close();
});

/** Starts `svc-agent mcp` with `env` and connects the SDK's client to it. */
async function connect(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "svc-agent-test", version: "0.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [AGENT_CLI, "mcp"], env, stderr: "ignore" }));
  clients.push(client);
  return client;
}

/** The JSON data line of a tool result (the line after the sentence), remembered for the secret scan. */
function data(result: CallToolResult): Record<string, unknown> {
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
  seen.push(text, JSON.stringify(result.structuredContent ?? {}));
  return JSON.parse(text.split("\n").slice(1).join("\n")) as Record<string, unknown>;
}

describe("svc-agent mcp", () => {
  it("lists its tools, quotes, and pays for GET /weather in a tool call", async () => {
    const env = world.agentEnv("mcp-pay", { SVC_PAYER_PK: world.payerKey });
    const client = await connect(env);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.values(MCP_TOOLS).sort());
    for (const tool of tools) expect(tool.description?.length ?? 0).toBeGreaterThan(80);

    const quote = data((await client.callTool({ name: MCP_TOOLS.quote, arguments: { url: world.weatherUrl } })) as CallToolResult);
    expect(quote).toMatchObject({ result: "offer", amount: "0.00000000000000101 zFIX", amountBaseUnits: "1010", allowed: true, needsApproval: false });

    const paid = (await client.callTool({ name: MCP_TOOLS.fetch, arguments: { url: world.weatherUrl } })) as CallToolResult;
    expect(paid.isError).not.toBe(true);
    const result = data(paid) as { payment: { id: string; transaction: string }; resource: { status: number; body: string } };
    expect(result.payment).toMatchObject({ result: "paid", amount: "0.00000000000000101 zFIX", amountBaseUnits: "1010", phase: "settled" });
    expect(result.resource.status).toBe(200);
    expect(JSON.parse(result.resource.body)).toHaveProperty("conditions");
    const entry = await new Ledger(join(world.dir, "mcp-pay")).get(result.payment.id);
    expect(entry).toMatchObject({ status: "settled", transaction: result.payment.transaction });
    expect(await world.transfersTo(entry.payTo)).toEqual([{ transactionHash: result.payment.transaction, value: 1010n }]);

    const status = data((await client.callTool({ name: MCP_TOOLS.status, arguments: {} })) as CallToolResult);
    expect(status).toMatchObject({ spend: [{ spentBaseUnits: "1010", settled: "0.00000000000000101 zFIX" }], pendingApprovals: [] });

    // The method reaches the provider, which serves the weather only to GET: an HTTP error, nothing paid.
    const posted = (await client.callTool({
      name: MCP_TOOLS.fetch,
      arguments: { url: world.weatherUrl, method: "POST", headers: { "content-type": "text/plain" }, body: "city=Zurich" },
    })) as CallToolResult;
    expect(posted.isError).toBe(true);
    expect(data(posted)).toMatchObject({ reason: "http_error", status: 404 });
    const forged = (await client.callTool({
      name: MCP_TOOLS.fetch,
      arguments: { url: world.weatherUrl, headers: { "Payment-Signature": "eyJmb3JnZWQiOnRydWV9" } },
    })) as CallToolResult;
    expect(data(forged)).toMatchObject({ reason: "payment_header_given" });
    const refused = (await client.callTool({ name: MCP_TOOLS.fetch, arguments: { url: "http://example.com/weather" } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(data(refused)).toMatchObject({ reason: "host_not_allowed" });
    const resend = (await client.callTool({ name: MCP_TOOLS.resend, arguments: { id: result.payment.id } })) as CallToolResult;
    expect(resend.isError).toBe(true);
    expect(data(resend)).toMatchObject({ reason: "nothing_to_resend" });
  });

  it("never overspends SVC_MAX_TOTAL when an MCP agent and a CLI agent race for its last unit", async () => {
    const env = world.agentEnv("mcp-race", { SVC_PAYER_PK: world.payer2Key, SVC_MAX_TOTAL: "1010base" });
    const client = await connect(env);
    const [mcp, cli] = await Promise.all([
      client.callTool({ name: MCP_TOOLS.fetch, arguments: { url: world.weatherUrl } }) as Promise<CallToolResult>,
      runAgent(["pay", "--json", world.weatherUrl], env),
    ]);
    const mcpPaid = mcp.isError !== true;
    const mcpData = data(mcp);
    const cliResult = JSON.parse(cli.stdout) as { result: string; reason?: string };
    expect([mcpPaid, cliResult.result === "paid"].filter(Boolean)).toHaveLength(1);
    if (!mcpPaid) expect(mcpData).toMatchObject({ reason: "above_max_total" });
    else expect(cliResult).toMatchObject({ result: "declined", reason: "above_max_total" });
    const entries = await new Ledger(join(world.dir, "mcp-race")).entries();
    expect(entries.map((entry) => entry.status)).toEqual(["settled"]);
  });

  it("answers approval_required at once at the client's default timeout; approved in the TUI supervisor, payment_status returns the paid resource; denied, the reason", async () => {
    const env = world.agentEnv("mcp-approval", { SVC_PAYER_PK: world.payerKey, SVC_APPROVE_ABOVE: "1000base", SVC_APPROVAL_TIMEOUT_MS: "60000" });
    const client = await connect(env);
    const stateDir = join(world.dir, "mcp-approval");
    // No progress token and no resetTimeoutOnProgress: the SDK's default 60 s request timeout applies to every call.
    const asked = (await client.callTool({ name: MCP_TOOLS.fetch, arguments: { url: world.weatherUrl } })) as CallToolResult;
    expect(asked.isError).not.toBe(true);
    const required = data(asked) as { status: string; approvalId: string; expiresAt: string };
    expect(required).toMatchObject({
      status: "approval_required",
      amountBaseUnits: "1010",
      approveCommand: `svc-agent approvals approve ${required.approvalId}`,
    });
    const id = required.approvalId;
    expect(Date.parse(required.expiresAt)).toBeGreaterThan(Date.now());
    expect(await new Ledger(stateDir).get(id)).toMatchObject({ status: "reserved" });
    expect(data((await client.callTool({ name: MCP_TOOLS.paymentStatus, arguments: { approvalId: id, waitSeconds: 0 } })) as CallToolResult)).toMatchObject({
      status: "pending",
      approvalId: id,
    });

    const progress: string[] = [];
    const waiting = client.callTool({ name: MCP_TOOLS.paymentStatus, arguments: { approvalId: id } }, undefined, {
      onprogress: (update) => progress.push(update.message ?? ""),
    }) as Promise<CallToolResult>;
    const tui = render(createElement(App, { dependencies: createTuiDependencies(loadPolicy(env)), binaryName: "svc-agent" }));
    try {
      await waitForText(tui.lastFrame, `› ${id}`);
      tui.stdin.write("a");
      await waitForText(tui.lastFrame, "[y] yes · [n] no, back");
      tui.stdin.write("y");
      const approved = await waiting;
      expect(approved.isError).not.toBe(true);
      const paid = data(approved) as { status: string; payment: { id: string }; resource: { status: number } };
      expect(paid).toMatchObject({ status: "paid", payment: { result: "paid", id }, resource: { status: 200 } });
      expect(progress.some((message) => message.includes(`payment ${id}`) && message.includes(`svc-agent approvals approve ${id}`))).toBe(true);
      await waitForFrame(tui.lastFrame, (frame) => frame.includes("Pending approvals from other agents: none"));
    } finally {
      tui.unmount();
    }

    const denying = data((await client.callTool({ name: MCP_TOOLS.fetch, arguments: { url: world.weatherUrl } })) as CallToolResult) as { approvalId: string };
    await decideApproval({ stateDir, id: denying.approvalId, decision: "denied", by: "test" });
    const denied = (await client.callTool({ name: MCP_TOOLS.paymentStatus, arguments: { approvalId: denying.approvalId } })) as CallToolResult;
    expect(denied.isError).toBe(true);
    expect(data(denied)).toMatchObject({ status: "denied", reason: "approval_denied", id: denying.approvalId });
    expect(await new Ledger(stateDir).get(denying.approvalId)).toMatchObject({ status: "released", errorReason: "approval_denied" });
  });

  it("pays an approved payment exactly once while two sessions poll it, approved by the CLI from another process", async () => {
    const env = world.agentEnv("mcp-once", { SVC_PAYER_PK: world.payer2Key, SVC_APPROVE_ABOVE: "1000base", SVC_APPROVAL_TIMEOUT_MS: "60000" });
    const stateDir = join(world.dir, "mcp-once");
    const [first, second] = await Promise.all([connect(env), connect(env)]);
    const required = data((await first.callTool({ name: MCP_TOOLS.fetch, arguments: { url: world.weatherUrl } })) as CallToolResult) as { approvalId: string };
    const id = required.approvalId;
    const status = (client: Client, waitSeconds?: number) =>
      client.callTool({
        name: MCP_TOOLS.paymentStatus,
        arguments: { approvalId: id, ...(waitSeconds === undefined ? {} : { waitSeconds }) },
      }) as Promise<CallToolResult>;
    expect(data(await status(second, 0))).toMatchObject({ status: "pending", approvalId: id });
    expect(data(await status(first, 0))).toMatchObject({ status: "pending", approvalId: id });

    const polls = [status(first), status(first), status(second), status(second)];
    const cli = await runAgent(["approvals", "approve", id], env);
    expect(cli.code).toBe(0);
    const results = (await Promise.all(polls)).map(
      (result) => data(result) as { status: string; payment: { id: string; transaction: string }; resource: unknown },
    );
    for (const result of results) expect(result).toMatchObject({ status: "paid", payment: { result: "paid", id } });
    expect(results[0]?.resource).toMatchObject({ status: 200 });
    expect(results[2]?.resource).toBeNull();
    // Asked again after the end, the answer stays the same and nothing is paid again.
    expect(data(await status(first, 0))).toMatchObject({ status: "paid" });
    expect(data(await status(second, 0))).toMatchObject({ status: "paid" });

    const entries = await new Ledger(stateDir).entries();
    expect(entries.map((entry) => [entry.id, entry.status])).toEqual([[id, "settled"]]);
    const [entry] = entries;
    expect(await world.transfersTo(entry?.payTo ?? "0x")).toEqual([{ transactionHash: results[0]?.payment.transaction, value: 1010n }]);
  });

  it("reports expired and releases the reservation when nobody decides in time", async () => {
    const env = world.agentEnv("mcp-expired", { SVC_PAYER_PK: world.payerKey, SVC_APPROVE_ABOVE: "1000base", SVC_APPROVAL_TIMEOUT_MS: "1500" });
    const client = await connect(env);
    const required = data((await client.callTool({ name: MCP_TOOLS.fetch, arguments: { url: world.weatherUrl } })) as CallToolResult) as { approvalId: string };
    const expired = (await client.callTool({ name: MCP_TOOLS.paymentStatus, arguments: { approvalId: required.approvalId } })) as CallToolResult;
    expect(expired.isError).toBe(true);
    expect(data(expired)).toMatchObject({ status: "expired", reason: "approval_timed_out" });
    expect(await new Ledger(join(world.dir, "mcp-expired")).get(required.approvalId)).toMatchObject({ status: "released", errorReason: "approval_timed_out" });
    const unknown = (await client.callTool({ name: MCP_TOOLS.paymentStatus, arguments: { approvalId: "0123456789ab", waitSeconds: 0 } })) as CallToolResult;
    expect(data(unknown)).toMatchObject({ reason: "payment_not_found" });
  });

  it("withdraws a waiting approval and releases its reservation when the client closes the session", async () => {
    const env = world.agentEnv("mcp-closed", { SVC_PAYER_PK: world.payerKey, SVC_APPROVE_ABOVE: "1000base", SVC_APPROVAL_TIMEOUT_MS: "60000" });
    const client = await connect(env);
    const required = data((await client.callTool({ name: MCP_TOOLS.fetch, arguments: { url: world.weatherUrl } })) as CallToolResult) as { approvalId: string };
    await client.close();
    const ledger = new Ledger(join(world.dir, "mcp-closed"));
    const deadline = Date.now() + 20_000;
    while ((await ledger.get(required.approvalId)).status !== "released") {
      if (Date.now() > deadline) throw new Error("the reservation was not released after the session closed");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await listPendingApprovals(join(world.dir, "mcp-closed"))).toEqual([]);
  });

  it("tells the agent its payer address, chain, balance and limits", async () => {
    const env = world.agentEnv("mcp-info", {
      SVC_PAYER_PK: world.payerKey,
      SVC_MAX_TOTAL: "5000base",
      SVC_MAX_PER_PAYMENT: "2000base",
      SVC_APPROVE_ABOVE: "1500base",
      SVC_MAX_PER_DAY: "4000base",
      SVC_MAX_PER_MCP_SESSION: "3000base",
    });
    const client = await connect(env);
    const quote = data((await client.callTool({ name: MCP_TOOLS.quote, arguments: { url: world.weatherUrl } })) as CallToolResult) as { asset: `0x${string}` };
    const payer = privateKeyToAccount(world.payerKey).address;
    const info = data((await client.callTool({ name: MCP_TOOLS.payerInfo, arguments: { asset: quote.asset } })) as CallToolResult);
    const balance = await world.balanceOf(payer);
    expect(info).toMatchObject({
      payer,
      network: env.SVC_ALLOWED_NETWORK,
      chainId: Number(env.SVC_ALLOWED_NETWORK?.split(":")[1]),
      tokens: [
        {
          asset: quote.asset.toLowerCase(),
          symbol: "zFIX",
          decimals: 18,
          balance: formatUnits(balance, 18),
          balanceBaseUnits: balance.toString(),
          spentBaseUnits: "0",
          limits: {
            perPayment: { baseUnits: "2000", amount: "0.000000000000002 zFIX" },
            total: { baseUnits: "5000" },
            totalRemaining: { baseUnits: "5000" },
            approvalAbove: { baseUnits: "1500" },
            perDay: { baseUnits: "4000" },
            perHour: null,
            perMcpSession: { baseUnits: "3000" },
          },
          limitsStatus: [
            { limit: "maxTotal", capBaseUnits: "5000", usedBaseUnits: "0", leftBaseUnits: "5000", freesAt: null },
            { limit: "maxPerDay", capBaseUnits: "4000", usedBaseUnits: "0", leftBaseUnits: "4000", freesAt: null },
            { limit: "maxPerMcpSession", capBaseUnits: "3000", usedBaseUnits: "0", leftBaseUnits: "3000" },
          ],
        },
      ],
    });
  });

  it("never shows the key, a signature or a stored payment header in anything a tool returned", async () => {
    expect(seen.length).toBeGreaterThan(10);
    // The keys, a header value a caller tried to pass (never echoed), and every stored payment header.
    const secrets = [world.payerKey, world.payer2Key, world.payerKey.slice(2), world.payer2Key.slice(2), "eyJmb3JnZWQiOnRydWV9"];
    for (const state of ["mcp-pay", "mcp-race", "mcp-approval", "mcp-once", "mcp-expired"]) {
      for (const entry of await new Ledger(join(world.dir, state)).entries()) {
        if (entry.paymentHeader !== undefined) secrets.push(entry.paymentHeader, entry.paymentHeader.slice(0, 64));
      }
    }
    expect(secrets.length).toBeGreaterThan(6);
    for (const text of seen) {
      for (const secret of secrets) expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
      expect(text).not.toMatch(/"(signature|paymentHeader|payload)"\s*:/i);
    }
  });
});
