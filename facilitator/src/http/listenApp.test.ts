import { createServer } from "node:net";

import type { VerifyResponse } from "@svc/scheme";
import { describe, expect, it } from "vitest";

import { ListenError } from "./errors.js";
import { createApp } from "./createApp.js";
import { listenApp } from "./listenApp.js";
import { buildAppDependencies } from "./testing/buildAppDependencies.js";

/** A verify that does not answer until the test says so, and says when it has been entered. */
function blockingVerify(): {
  verify: () => Promise<VerifyResponse>;
  entered: Promise<void>;
  release: () => void;
} {
  let release = (): void => {};
  let markEntered = (): void => {};
  const entered = new Promise<void>((resolve) => (markEntered = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    verify: async () => {
      markEntered();
      await gate;
      return { isValid: true };
    },
    entered,
    release,
  };
}

function verifyRequest(url: string): Promise<Response> {
  return fetch(`${url}/verify`, { method: "POST", body: "{}" });
}

describe("listenApp", () => {
  it("reports the bound host:port and serves the app", async () => {
    const listening = await listenApp(createApp(buildAppDependencies()), { host: "127.0.0.1", port: 0 });
    try {
      expect(listening.address).toMatch(/^127\.0\.0\.1:[0-9]+$/);
      expect((await fetch(`http://${listening.address}/healthz`)).status).toBe(200);
    } finally {
      await listening.close(0);
    }
  });

  it("rejects with ListenError when the port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const address = blocker.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    try {
      const app = createApp(buildAppDependencies());
      await expect(listenApp(app, { host: "127.0.0.1", port })).rejects.toThrow(ListenError);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it("closes promptly when only idle keep-alive connections are open", async () => {
    const listening = await listenApp(createApp(buildAppDependencies()), { host: "127.0.0.1", port: 0 });
    expect((await fetch(`http://${listening.address}/healthz`)).status).toBe(200);
    const started = Date.now();
    await listening.close(10_000);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("waits for a request in flight, refuses new connections meanwhile, then closes", async () => {
    const blocking = blockingVerify();
    const listening = await listenApp(createApp(buildAppDependencies({ verify: blocking.verify })), {
      host: "127.0.0.1",
      port: 0,
    });
    const url = `http://${listening.address}`;
    const inFlight = verifyRequest(url);
    await blocking.entered;

    let closed = false;
    const closing = listening.close(10_000).then(() => (closed = true));
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    expect(closed).toBe(false);

    blocking.release();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toEqual({ isValid: true });
    await closing;
    expect(closed).toBe(true);
  });

  it("destroys requests still in flight when the grace period ends", async () => {
    const blocking = blockingVerify();
    const listening = await listenApp(createApp(buildAppDependencies({ verify: blocking.verify })), {
      host: "127.0.0.1",
      port: 0,
    });
    const inFlight = verifyRequest(`http://${listening.address}`);
    await blocking.entered;
    const started = Date.now();
    await listening.close(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    await expect(inFlight).rejects.toThrow();
    blocking.release();
  });

  it("returns the same promise when closed twice", async () => {
    const listening = await listenApp(createApp(buildAppDependencies()), { host: "127.0.0.1", port: 0 });
    const first = listening.close(0);
    expect(listening.close(0)).toBe(first);
    await first;
  });
});
