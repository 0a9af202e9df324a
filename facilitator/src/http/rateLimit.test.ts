import { afterEach, describe, expect, it } from "vitest";

import { openEmbeddedStorage } from "../storage/openEmbeddedStorage.js";
import { type AppDependenciesOverrides, startTestServer, type TestServer } from "./testing/buildAppDependencies.js";

const SELF_TRANSFER_BODY = JSON.stringify({
  challengeNonce: `0x${"cd".repeat(32)}`,
  burnTxHash: `0x${"ab".repeat(32)}`,
});

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A frozen clock at the start of a minute, so waits do not depend on when the test runs. */
const FROZEN_AT_MINUTE_START = (): number => 1_900_000_020_000;

async function start(overrides: AppDependenciesOverrides): Promise<string> {
  server = await startTestServer(overrides, { now: FROZEN_AT_MINUTE_START });
  return server.url;
}

function post(url: string, path: "/challenge" | "/verify" | "/settle", headers: Record<string, string> = {}) {
  const body = path === "/challenge" ? JSON.stringify({ amount: "1" }) : SELF_TRANSFER_BODY;
  return fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
}

/** Posts to each path in turn from the same client and returns the statuses. */
function postEach(url: string, paths: ("/challenge" | "/verify" | "/settle")[]): Promise<number[]> {
  return statuses(paths.map((path) => () => post(url, path)));
}

/** Sends the requests one after another (never in parallel, so the order they reach the limiter is fixed). */
async function statuses(requests: (() => Promise<Response>)[]): Promise<number[]> {
  const settled: number[] = [];
  for (const send of requests) settled.push((await send()).status);
  return settled;
}

describe("shared per-key rate limit", () => {
  it("answers 429 with Retry-After once /challenge, /verify and /settle together pass the limit", async () => {
    const url = await start({ daemon: { rate_limit_per_min: 3, challenge_per_key_per_min: 0 } });
    expect(await postEach(url, ["/challenge", "/verify", "/settle"])).toEqual([200, 200, 200]);
    const refused = await post(url, "/verify");
    expect(refused.status).toBe(429);
    // The minute ends in 60 s; a third of the three requests must then slide out of the window: 20 s more.
    expect(refused.headers.get("retry-after")).toBe("80");
    expect(await refused.json()).toEqual({ error: "rate limit exceeded; retry after 80 s" });
    expect((await post(url, "/challenge")).status).toBe(429);
    expect((await post(url, "/settle")).status).toBe(429);
  });

  it("does not count the read-only routes", async () => {
    const url = await start({ daemon: { rate_limit_per_min: 1 } });
    for (let i = 0; i < 5; i += 1) {
      expect((await fetch(`${url}/supported`)).status).toBe(200);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    }
    expect((await post(url, "/verify")).status).toBe(200);
  });

  it("is disabled by 0", async () => {
    const url = await start({ daemon: { rate_limit_per_min: 0, challenge_per_key_per_min: 0 } });
    const paths = ["/challenge", "/verify", "/settle"] as const;
    const results = await statuses(Array.from({ length: 30 }, (_, i) => () => post(url, paths[i % 3] ?? "/verify")));
    expect(results.every((status) => status === 200)).toBe(true);
  });

  it("refuses before reading the body, so an oversized body from a throttled client is still 429", async () => {
    const url = await start({ daemon: { rate_limit_per_min: 1 } });
    expect((await post(url, "/verify")).status).toBe(200);
    const response = await fetch(`${url}/verify`, { method: "POST", body: "x".repeat(70 * 1024) });
    expect(response.status).toBe(429);
  });
});

describe("rate limits shared through the storage", () => {
  it("two apps on one storage count one budget: the second app refuses what the first spent", async () => {
    const storage = await openEmbeddedStorage({ journalPath: null, challenges: { maxOpenChallenges: 10, retentionSeconds: 0 } });
    const limits = { daemon: { rate_limit_per_min: 2, challenge_per_key_per_min: 0 }, rateLimits: storage.rateLimits };
    const first = await startTestServer(limits);
    const second = await startTestServer(limits);
    try {
      expect((await post(first.url, "/verify")).status).toBe(200);
      expect((await post(second.url, "/verify")).status).toBe(200);
      const refused = await post(second.url, "/settle");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await post(first.url, "/verify")).status).toBe(429);
    } finally {
      await first.close();
      await second.close();
      await storage.close();
    }
  });
});

describe("client IP behind proxies", () => {
  it("ignores X-Forwarded-For from an untrusted peer: spoofed values share the peer's bucket", async () => {
    const url = await start({ daemon: { rate_limit_per_min: 2, challenge_per_key_per_min: 0 } });
    const results = await statuses([
      () => post(url, "/verify", { "x-forwarded-for": "203.0.113.1" }),
      () => post(url, "/verify", { "x-forwarded-for": "203.0.113.2" }),
      () => post(url, "/verify", { "x-forwarded-for": "203.0.113.3, 198.51.100.7" }),
      () => post(url, "/verify"),
    ]);
    expect(results).toEqual([200, 200, 429, 429]);
  });

  it("keys on the forwarded client when the peer is a trusted proxy", async () => {
    const url = await start({
      daemon: { rate_limit_per_min: 1, challenge_per_key_per_min: 0 },
      listen: { trusted_proxies: ["127.0.0.1"] },
    });
    const results = await statuses([
      () => post(url, "/verify", { "x-forwarded-for": "203.0.113.1" }),
      () => post(url, "/verify", { "x-forwarded-for": "203.0.113.1" }),
      () => post(url, "/verify", { "x-forwarded-for": "203.0.113.2" }),
      // The client prepends a spoofed hop; the trusted proxy appended the real one, which is what counts.
      () => post(url, "/verify", { "x-forwarded-for": "198.51.100.9, 203.0.113.2" }),
      () => post(url, "/verify"),
    ]);
    expect(results).toEqual([200, 429, 200, 429, 200]);
  });

  it("trusts proxies given as a CIDR block", async () => {
    const url = await start({
      daemon: { rate_limit_per_min: 1, challenge_per_key_per_min: 0 },
      listen: { trusted_proxies: ["127.0.0.0/8"] },
    });
    const results = await statuses([
      () => post(url, "/verify", { "x-forwarded-for": "203.0.113.1" }),
      () => post(url, "/verify", { "x-forwarded-for": "203.0.113.2" }),
    ]);
    expect(results).toEqual([200, 200]);
  });
});

describe("per-key challenge issuance limit", () => {
  it("applies to /challenge only", async () => {
    const url = await start({ daemon: { rate_limit_per_min: 0, challenge_per_key_per_min: 2 } });
    expect(await postEach(url, ["/challenge", "/challenge"])).toEqual([200, 200]);
    const refused = await post(url, "/challenge");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect(await refused.json()).toMatchObject({ error: expect.stringMatching(/^challenge issuance rate exceeded/) });
    expect(await postEach(url, ["/verify", "/settle", "/verify"])).toEqual([200, 200, 200]);
  });

  it.each([0, -1])("is disabled by %i", async (limit) => {
    const url = await start({ daemon: { rate_limit_per_min: 0, challenge_per_key_per_min: limit } });
    const results = await statuses(Array.from({ length: 25 }, () => () => post(url, "/challenge")));
    expect(results.every((status) => status === 200)).toBe(true);
  });

  it("is spent only by requests the shared limit let through", async () => {
    const url = await start({ daemon: { rate_limit_per_min: 2, challenge_per_key_per_min: 5 } });
    expect(await postEach(url, ["/challenge", "/challenge", "/challenge"])).toEqual([200, 200, 429]);
  });
});
