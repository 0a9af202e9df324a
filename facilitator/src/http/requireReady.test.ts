import { afterEach, describe, expect, it } from "vitest";

import type { ComponentReadiness, ReadinessComponent } from "../readiness/readinessReport.js";
import { NOT_READY_RETRY_AFTER_SECONDS } from "./requireReady.js";
import { startTestServer, type TestServer } from "./testing/buildAppDependencies.js";

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function serveWith(failing: Partial<Record<ReadinessComponent, ComponentReadiness>>) {
  const components = { rpc: { ready: true }, indexer: { ready: true }, journal: { ready: true }, stock: { ready: true }, ...failing };
  const ready = Object.values(components).every((component) => component.ready);
  return startTestServer({ readiness: async () => ({ ready, checkedAt: 0, components }) });
}

const challenge = (url: string) =>
  fetch(`${url}/challenge`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ amount: "5" }) });

describe("the readiness gate on /challenge", () => {
  it("refuses with 503 and Retry-After while the journal is not writable", async () => {
    server = await serveWith({ journal: { ready: false, reason: "not_writable" } });
    const response = await challenge(server.url);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe(String(NOT_READY_RETRY_AFTER_SECONDS));
    expect(await response.json()).toEqual({ error: `not ready (journal); retry after ${NOT_READY_RETRY_AFTER_SECONDS} s` });
    const readyz = await fetch(`${server.url}/readyz`);
    expect(readyz.status).toBe(503);
    expect(await readyz.json()).toMatchObject({ status: "not_ready", failing: ["journal"] });
  });

  it("still issues while only the indexer is down or the stock is empty but deriving", async () => {
    server = await serveWith({ indexer: { ready: false, reason: "unreachable" }, stock: { ready: false, reason: "stock_empty" } });
    expect((await challenge(server.url)).status).toBe(200);
    const readyz = await fetch(`${server.url}/readyz`);
    expect(readyz.status).toBe(503);
    expect(await readyz.json()).toMatchObject({ failing: ["indexer", "stock"] });
  });

  it("refuses when the pool has stopped", async () => {
    server = await serveWith({ stock: { ready: false, reason: "stock_stopped" } });
    expect((await challenge(server.url)).status).toBe(503);
  });
});
