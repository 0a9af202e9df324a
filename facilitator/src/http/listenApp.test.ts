import { createServer, type Socket } from "node:net";

import type { VerifyResponse } from "@svc/scheme";
import { describe, expect, it, vi } from "vitest";

import { ListenError } from "./errors.js";
import { createApp } from "./createApp.js";
import { listenApp, type ListeningApp } from "./listenApp.js";
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

/** The server side of every connection `listening` accepts from now on. */
function serverSockets(listening: ListeningApp): Socket[] {
  const sockets: Socket[] = [];
  listening.server.on("connection", (socket) => sockets.push(socket));
  return sockets;
}

/**
 * Runs `body` with `setTimeout` under vitest's clock, which moves only when the test advances it: what happens
 * before a timer's time is then an ordering, not a race against the machine's speed. Sockets and undici run as usual.
 */
async function withFrozenTimers(body: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    await body();
  } finally {
    vi.useRealTimers();
  }
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

  it("closes without waiting out the grace period when only idle keep-alive connections are open", async () => {
    const listening = await listenApp(createApp(buildAppDependencies()), { host: "127.0.0.1", port: 0 });
    const sockets = serverSockets(listening);
    expect((await fetch(`http://${listening.address}/healthz`)).status).toBe(200);
    // The answered request left its connection open and idle (keep-alive).
    expect(sockets.map((socket) => socket.destroyed)).toEqual([false]);
    await withFrozenTimers(async () => {
      // The clock never reaches the grace period's end: close resolves only if it does not wait for it.
      await listening.close(10_000);
    });
    expect(sockets.map((socket) => socket.destroyed)).toEqual([true]);
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

  it("destroys requests still in flight when the grace period ends, and not before", async () => {
    await withFrozenTimers(async () => {
      const blocking = blockingVerify();
      const listening = await listenApp(createApp(buildAppDependencies({ verify: blocking.verify })), {
        host: "127.0.0.1",
        port: 0,
      });
      const sockets = serverSockets(listening);
      const inFlight = verifyRequest(`http://${listening.address}`);
      const outcome = inFlight.then(
        () => "answered",
        () => "destroyed",
      );
      await blocking.entered;
      const closing = listening.close(200);
      // One millisecond before the grace period ends the request's connection is still open on the server.
      await vi.advanceTimersByTimeAsync(199);
      expect(sockets.map((socket) => socket.destroyed)).toEqual([false]);
      await vi.advanceTimersByTimeAsync(1);
      await closing;
      expect(sockets.map((socket) => socket.destroyed)).toEqual([true]);
      expect(await outcome).toBe("destroyed");
      blocking.release();
    });
  });

  it("returns the same promise when closed twice", async () => {
    const listening = await listenApp(createApp(buildAppDependencies()), { host: "127.0.0.1", port: 0 });
    const first = listening.close(0);
    expect(listening.close(0)).toBe(first);
    await first;
  });
});
