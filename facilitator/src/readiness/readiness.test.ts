/**
 * Readiness against a real stack: `/readyz` and the `/challenge` gate follow the RPC as a proxy between the
 * daemon and anvil dies and comes back.
 */
import { waitFor } from "@svc/anvil-fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { NOT_READY_RETRY_AFTER_SECONDS } from "../http/requireReady.js";
import { postJson, startTestDaemon, startTestStack, type TestStack } from "../testing/localFacilitator.js";
import { startStoppableRpcProxy } from "../testing/stoppableRpcProxy.js";
import { createReadinessProbe } from "./createReadinessProbe.js";

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.close();
});

async function readyz(url: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: await response.json() };
}

async function waitForReadyz(url: string, status: number, timeoutMs = 15_000): Promise<any> {
  const answer = await waitFor(
    async () => {
      const current = await readyz(url);
      return current.status === status ? current : undefined;
    },
    { what: `/readyz answering ${status}`, timeoutMs },
  );
  return answer.body;
}

describe("readiness", () => {
  it("flips to 503 when the RPC proxy dies, refuses /challenge with Retry-After, and recovers", async () => {
    const proxy = await startStoppableRpcProxy(stack.deployment.rpcUrl, "/?apikey=rpc-readiness-secret-4711");
    const daemon = await startTestDaemon(stack, "readiness", { network: { rpc_url: proxy.url } });
    try {
      const ready = await waitForReadyz(daemon.url, 200);
      expect(ready).toMatchObject({
        status: "ready",
        components: { rpc: { ready: true }, indexer: { ready: true }, journal: { ready: true }, stock: { ready: true } },
      });

      await proxy.stop();
      const down = await waitForReadyz(daemon.url, 503);
      expect(down.failing).toEqual(["rpc"]);
      expect(down.components.rpc.reason).toBe("unreachable");
      expect(JSON.stringify(down)).not.toContain("rpc-readiness-secret-4711");
      expect(down.components.rpc.detail.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?apikey=\*\*\*$/);
      const refused = await fetch(`${daemon.url}/challenge`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ amount: "1000" }),
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe(String(NOT_READY_RETRY_AFTER_SECONDS));
      expect(((await refused.json()) as { error: string }).error).toMatch(/^not ready \(rpc\)/);
      expect((await fetch(`${daemon.url}/healthz`)).status).toBe(200);

      await proxy.start();
      await waitForReadyz(daemon.url, 200);
      expect((await postJson(`${daemon.url}/challenge`, { amount: "1000" })).status).toBe(200);
    } finally {
      await daemon.stop();
      await proxy.stop();
    }
  });
});

describe("createReadinessProbe", () => {
  it("runs the checks once per cache lifetime and shares a run between concurrent callers", async () => {
    let clock = 0;
    let runs = 0;
    const checks = {
      rpc: () => {
        runs += 1;
        return { ready: runs === 1 };
      },
      indexer: () => ({ ready: true }),
      journal: () => ({ ready: true }),
      stock: () => ({ ready: true }),
    };
    const probe = createReadinessProbe({ checks, cacheMs: 1000, now: () => clock });
    const [first, second] = await Promise.all([probe.current(), probe.current()]);
    expect(runs).toBe(1);
    expect(first).toBe(second);
    expect(first.ready).toBe(true);
    clock = 999;
    expect((await probe.current()).ready).toBe(true);
    expect(runs).toBe(1);
    clock = 1000;
    expect((await probe.current()).ready).toBe(false);
    expect(runs).toBe(2);
  });
});
