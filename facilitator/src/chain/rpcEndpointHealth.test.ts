import { describe, expect, it } from "vitest";

import { createRpcEndpointHealth, type RpcEndpointChange } from "./rpcEndpointHealth.js";

function build(count = 2) {
  let clock = 0;
  const changes: RpcEndpointChange[] = [];
  const health = createRpcEndpointHealth({
    endpoints: Array.from({ length: count }, (_, index) => ({ endpoint: `rpc#${index}`, origin: `https://${index}.example` })),
    backoff: { initialMs: 1_000, maxMs: 4_000 },
    now: () => clock,
    onChange: (change) => changes.push(change),
  });
  return { health, changes, at: (ms: number) => (clock = ms) };
}

describe("createRpcEndpointHealth", () => {
  it("starts with every endpoint up and skips none", () => {
    const { health } = build();
    expect(health.shouldSkip(0, false)).toBe(false);
    expect(health.shouldSkip(0, true)).toBe(false);
    expect(health.snapshot()).toEqual([
      { endpoint: "rpc#0", origin: "https://0.example", up: true, consecutiveFailures: 0, errors: 0, skips: 0, retryInMs: null, lastError: null },
      { endpoint: "rpc#1", origin: "https://1.example", up: true, consecutiveFailures: 0, errors: 0, skips: 0, retryInMs: null, lastError: null },
    ]);
  });

  it("passes a failed endpoint by for a delay that doubles per failure up to the maximum", () => {
    const { health, at } = build();
    const delays: number[] = [];
    for (let failure = 0; failure < 4; failure++) {
      health.failed(0, "HttpRequestError");
      delays.push(health.snapshot()[0]?.retryInMs ?? -1);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 4_000]);
    at(3_999);
    expect(health.shouldSkip(0, false)).toBe(true);
    at(4_000);
    expect(health.shouldSkip(0, false)).toBe(false);
  });

  it("lets one read probe once the delay is over, and the next only a delay later", () => {
    const { health, at } = build();
    health.failed(0, "HttpRequestError");
    at(1_000);
    expect([health.shouldSkip(0, false), health.shouldSkip(0, false), health.shouldSkip(0, false)]).toEqual([false, true, true]);
    at(1_999);
    expect(health.shouldSkip(0, false)).toBe(true);
    at(2_000);
    expect(health.shouldSkip(0, false)).toBe(false);
    expect(health.snapshot()[0]?.skips).toBe(3);
  });

  it("never lets a write probe a failed endpoint while another is up", () => {
    const { health, at } = build();
    health.failed(0, "TimeoutError");
    at(60_000);
    expect(health.shouldSkip(0, true)).toBe(true);
  });

  it("skips nothing when every endpoint is down: there is nothing better to try", () => {
    const { health } = build();
    health.failed(0, "HttpRequestError");
    health.failed(1, "HttpRequestError");
    expect(health.shouldSkip(0, true)).toBe(false);
    expect(health.shouldSkip(1, false)).toBe(false);
  });

  it("forgets an endpoint's checked chain id when it fails, so it is checked again before its next use", () => {
    const { health } = build();
    expect(health.isChainChecked(0)).toBe(false);
    health.chainChecked(0);
    health.succeeded(0);
    expect(health.isChainChecked(0)).toBe(true);
    health.failed(0, "TimeoutError");
    expect(health.isChainChecked(0)).toBe(false);
  });

  it("takes an endpoint back on its first answer and reports only the changes", () => {
    const { health, changes } = build();
    health.failed(1, "HttpRequestError");
    health.failed(1, "TimeoutError");
    health.succeeded(1);
    health.succeeded(1);
    expect(changes.map(({ index, snapshot }) => [index, snapshot.up, snapshot.lastError])).toEqual([
      [1, false, "HttpRequestError"],
      [1, true, "TimeoutError"],
    ]);
    expect(health.snapshot()[1]).toMatchObject({ up: true, consecutiveFailures: 0, errors: 2, retryInMs: null });
    health.failed(1, "HttpRequestError");
    // A fresh failure after an answer starts the delay over.
    expect(health.snapshot()[1]?.retryInMs).toBe(1_000);
  });
});
