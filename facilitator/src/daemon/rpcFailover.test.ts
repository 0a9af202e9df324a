/**
 * RPC failover on a real daemon: `network.rpc_urls` names two fault-injecting proxies in front of one real anvil.
 * With the first answering HTTP 429 or down, offers, verifies and a permit settle go through the second, and the
 * first is backed off rather than hammered; `/readyz` stays ready while one endpoint answers and goes not-ready
 * when both are down; status, `/metrics` and the log show each endpoint by label and host, never the key in the
 * first one's URL.
 */
import { waitFor } from "@svc/anvil-fixtures";
import { Writable } from "node:stream";
import type { Hex } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { runCli } from "../commands/runCli.js";
import { startFaultRpcProxy, type FaultRpcProxy } from "../testing/faultRpcProxy.js";
import {
  adminGet,
  facilitatorBody,
  postJson,
  requestOffer,
  signPermitPayment,
  startTestDaemon,
  startTestStack,
  type TestDaemon,
  type TestStack,
} from "../testing/localFacilitator.js";
import { parsePrometheusText, sampleValue } from "../testing/parsePrometheusText.js";

const SECRET = "rpc-failover-secret-4711";

let stack: TestStack;
let first: FaultRpcProxy;
let second: FaultRpcProxy;

beforeAll(async () => {
  stack = await startTestStack();
  first = await startFaultRpcProxy(stack.deployment.rpcUrl, `/?apikey=${SECRET}`);
  second = await startFaultRpcProxy(stack.deployment.rpcUrl);
});

afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
  await stack?.close();
});

beforeEach(async () => {
  for (const proxy of [first, second]) {
    await proxy.up();
    proxy.inject("*", undefined);
  }
});

function startFailoverDaemon(name: string): Promise<TestDaemon> {
  return startTestDaemon(stack, name, { network: { rpc_url: null, rpc_urls: [first.url, second.url] }, daemon: { finalize_interval_ms: 600_000 } });
}

async function readyz(daemon: TestDaemon): Promise<{ status: number; body: any }> {
  const response = await fetch(`${daemon.url}/readyz`);
  return { status: response.status, body: await response.json() };
}

function waitForReadyz(daemon: TestDaemon, status: number, accept: (body: any) => boolean = () => true): Promise<any> {
  return waitFor(
    async () => {
      const answer = await readyz(daemon);
      return answer.status === status && accept(answer.body) ? answer.body : undefined;
    },
    { what: `/readyz answering ${status}`, timeoutMs: 15_000 },
  );
}

async function metrics(daemon: TestDaemon): Promise<string> {
  const response = await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${stack.env.SVC_ADMIN_TOKEN}` } });
  return response.text();
}

async function statusCommand(daemon: TestDaemon): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      stdout += chunk.toString();
      callback();
    },
  });
  const code = await runCli(["status", "--config", daemon.configPath, "--url", daemon.url], {
    env: stack.env,
    stdin: process.stdin,
    stdout: sink,
    stderr: sink,
    colorDepth: 1,
  });
  return { code, stdout };
}

describe("RPC failover", () => {
  it.each([
    ["answers HTTP 429", (proxy: FaultRpcProxy) => Promise.resolve(proxy.inject("*", "rate-limit"))],
    ["is down", (proxy: FaultRpcProxy) => proxy.down("close")],
  ])("settles a permit payment through the second endpoint while the first %s, without hammering the first", async (_, fail) => {
    await fail(first);
    const daemon = await startFailoverDaemon(`failover-${first.received()}`);
    try {
      const requirements = await requestOffer(daemon, "1000");
      const payload = await signPermitPayment(stack, requirements, stack.deployment.accounts.payer.privateKey);
      const body = facilitatorBody(requirements, payload);
      const before = { first: first.received(), second: second.received(), sends: first.calls("eth_sendRawTransaction") };
      const VERIFIES = 30;
      for (let request = 0; request < VERIFIES; request++) {
        expect((await postJson(`${daemon.url}/verify`, body)).body).toMatchObject({ isValid: true });
      }
      const settled = await postJson(`${daemon.url}/settle`, body);
      expect(settled.body).toMatchObject({ success: true, extra: { phase: "accepted" } });
      const receipt = await stack.client.getTransactionReceipt({ hash: settled.body.transaction as Hex });
      expect(receipt.status).toBe("success");

      // Every verify and the settle went to the second endpoint; the first saw at most a probe per doubling delay.
      const firstHits = first.received() - before.first;
      expect(second.received() - before.second).toBeGreaterThanOrEqual(VERIFIES + 1);
      expect(firstHits).toBeLessThan(VERIFIES / 3);
      expect(first.calls("eth_sendRawTransaction")).toBe(before.sends);

      const status = await adminGet(stack, daemon, "/admin/status");
      expect(status.rpcEndpoints[0]).toMatchObject({ endpoint: "rpc#0", origin: first.url.replace(/\/\?.*$/, ""), up: false });
      expect(status.rpcEndpoints[0].skips).toBeGreaterThan(VERIFIES);
      expect(status.rpcEndpoints[1]).toMatchObject({ endpoint: "rpc#1", up: true, errors: 0 });
      const down = daemon.logs.map((line) => JSON.parse(line)).filter((event) => event.event === "rpc_endpoint_down");
      expect(down).toEqual([expect.objectContaining({ level: "warn", endpoint: "rpc#0", error: "HttpRequestError" })]);
      expect([...daemon.logs, JSON.stringify(status)].join("\n")).not.toContain(SECRET);
    } finally {
      await daemon.stop();
    }
  });

  it("stays ready while one endpoint answers, reports each endpoint, and goes not-ready when both are down", async () => {
    const daemon = await startFailoverDaemon("failover-readiness");
    const shown: string[] = [];
    try {
      const both = await waitForReadyz(daemon, 200);
      expect(both.components.rpc.detail).toMatchObject({ endpoints: 2, endpoints_up: 2, "rpc#0": "up", "rpc#1": "up" });

      await first.down("refuse");
      const one = await waitForReadyz(daemon, 200, (body) => body.components.rpc.detail["rpc#0"] === "unreachable");
      expect(one.components.rpc.detail).toMatchObject({ endpoints: 2, endpoints_up: 1, "rpc#1": "up" });
      expect((await postJson(`${daemon.url}/challenge`, { amount: "1000" })).status).toBe(200);

      const status = await statusCommand(daemon);
      expect(status.code).toBe(0);
      expect(status.stdout).toContain("readiness: ready\nrpc endpoints: 1 of 2 up\n");
      // The command's last-line redaction prints every URL normalised, with a path.
      expect(status.stdout).toMatch(/\n {2}rpc#0 http:\/\/127\.0\.0\.1:\d+\/: DOWN \(HttpRequestError\), \d+ errors, \d+ skipped, next try in \d+s\n/);
      expect(status.stdout).toMatch(/\n {2}rpc#1 http:\/\/127\.0\.0\.1:\d+\/: up, 0 errors, 0 skipped\n/);
      const text = await metrics(daemon);
      const samples = parsePrometheusText(text);
      expect(sampleValue(samples, "facilitator_rpc_endpoint_up", { endpoint: "rpc#0" })).toBe(0);
      expect(sampleValue(samples, "facilitator_rpc_endpoint_up", { endpoint: "rpc#1" })).toBe(1);
      expect(sampleValue(samples, "facilitator_rpc_endpoint_errors_total", { endpoint: "rpc#0" })).toBeGreaterThanOrEqual(1);
      shown.push(JSON.stringify(one), status.stdout, text);

      await second.down("refuse");
      const none = await waitForReadyz(daemon, 503);
      expect(none.failing).toContain("rpc");
      expect(none.components.rpc).toMatchObject({
        ready: false,
        reason: "unreachable",
        detail: { endpoints_up: 0, "rpc#0": "unreachable", "rpc#1": "unreachable" },
      });
      expect(none.components.rpc.detail.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?apikey=\*\*\*$/);
      shown.push(JSON.stringify(none));

      await first.up();
      const back = await waitForReadyz(daemon, 200);
      expect(back.components.rpc.detail).toMatchObject({ endpoints_up: 1, "rpc#0": "up", "rpc#1": "unreachable" });
      expect(daemon.logs.some((line) => JSON.parse(line).event === "rpc_endpoint_up")).toBe(true);
      shown.push(JSON.stringify(back), ...daemon.logs);
      expect(shown.join("\n")).not.toContain(SECRET);
    } finally {
      await daemon.stop();
    }
  });
});
