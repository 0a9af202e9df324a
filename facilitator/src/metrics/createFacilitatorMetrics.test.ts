/**
 * The scrape-time gauges of the burn-address stock and the Poseidon info series, read from stand-in sources
 * and parsed from the exposition text.
 */
import { describe, expect, it } from "vitest";

import type { BurnAddressPoolStats } from "../challenges/burnAddressPool.js";
import type { PoseidonStatus, RpcEndpointStatus } from "../operator/adminStatus.js";
import { BACKLOG_STATES, type SettlementBacklog } from "../operator/settlementBacklog.js";
import { parsePrometheusText, sampleValue, type PrometheusSample } from "../testing/parsePrometheusText.js";
import { createFacilitatorMetrics } from "./createFacilitatorMetrics.js";

function buildPoolStats(overrides: Partial<BurnAddressPoolStats> = {}): BurnAddressPoolStats {
  return {
    stocked: 20,
    deriving: 1,
    waiting: 0,
    workers: 2,
    derived: 40,
    meanDerivationMs: 170,
    stopped: false,
    restored: 0,
    floor: 16,
    ceiling: 64,
    target: 24,
    offersPerSecond: 4.5,
    derivationsPerSecond: 2.5,
    lastsSeconds: 10,
    ...overrides,
  };
}

async function scrape(
  poolStats: BurnAddressPoolStats | undefined,
  poseidon: PoseidonStatus = { implementation: "native", path: "avx2" },
  rpcEndpoints: RpcEndpointStatus[] = [],
): Promise<PrometheusSample[]> {
  const metrics = createFacilitatorMetrics({
    poolStats: () => poolStats,
    poseidon,
    backlog: () => Object.fromEntries(BACKLOG_STATES.map((state) => [state, { count: 0, oldestAgeSeconds: null }])) as SettlementBacklog,
    openChallenges: () => 0,
    relayerQueueDepth: () => 0,
    rpcEndpoints: () => rpcEndpoints,
    gasBalances: () => Promise.resolve({ relayer: 0n, treasury: 0n }),
  });
  return parsePrometheusText(await metrics.registry.metrics());
}

describe("RPC endpoint series", () => {
  it("report each endpoint's state, errors and skips by label only, never by URL", async () => {
    const endpoints: RpcEndpointStatus[] = [
      {
        endpoint: "rpc#0",
        origin: "https://a.example",
        up: false,
        consecutiveFailures: 2,
        errors: 7,
        skips: 93,
        retryInMs: 1_500,
        lastError: "HttpRequestError",
      },
      { endpoint: "rpc#1", origin: "https://b.example", up: true, consecutiveFailures: 0, errors: 0, skips: 0, retryInMs: null, lastError: null },
    ];
    const samples = await scrape(undefined, undefined, endpoints);
    expect(sampleValue(samples, "facilitator_rpc_endpoint_up", { endpoint: "rpc#0" })).toBe(0);
    expect(sampleValue(samples, "facilitator_rpc_endpoint_up", { endpoint: "rpc#1" })).toBe(1);
    expect(sampleValue(samples, "facilitator_rpc_endpoint_errors_total", { endpoint: "rpc#0" })).toBe(7);
    expect(sampleValue(samples, "facilitator_rpc_endpoint_skips_total", { endpoint: "rpc#0" })).toBe(93);
    expect(sampleValue(samples, "facilitator_rpc_endpoint_errors_total", { endpoint: "rpc#1" })).toBe(0);
    expect(JSON.stringify(samples)).not.toContain("example");
  });
});

describe("burn-address stock gauges", () => {
  it("report the ready count, the target, both rates and how long the stock lasts", async () => {
    const samples = await scrape(buildPoolStats());
    expect(sampleValue(samples, "facilitator_burn_address_stock")).toBe(20);
    expect(sampleValue(samples, "facilitator_burn_address_stock_target")).toBe(24);
    expect(sampleValue(samples, "facilitator_burn_address_offer_rate")).toBe(4.5);
    expect(sampleValue(samples, "facilitator_burn_address_derivation_rate")).toBe(2.5);
    expect(sampleValue(samples, "facilitator_burn_address_stock_lasts_seconds")).toBe(10);
  });

  it("read +Inf for a stock that does not run out, and 0 for a derivation rate not timed yet", async () => {
    const samples = await scrape(buildPoolStats({ offersPerSecond: 0, derivationsPerSecond: null, lastsSeconds: null }));
    expect(sampleValue(samples, "facilitator_burn_address_stock_lasts_seconds")).toBe(Number.POSITIVE_INFINITY);
    expect(sampleValue(samples, "facilitator_burn_address_derivation_rate")).toBe(0);
  });

  it("read a stock that lasts indefinitely and a target of 0 when no pool runs (a non-local profile issues no offers)", async () => {
    const samples = await scrape(undefined);
    expect(sampleValue(samples, "facilitator_burn_address_stock_lasts_seconds")).toBe(Number.POSITIVE_INFINITY);
    expect(sampleValue(samples, "facilitator_burn_address_stock_target")).toBe(0);
  });
});

describe("facilitator_poseidon_info", () => {
  it("is one series of value 1 labelled with the implementation and path, path none under poseidon-lite", async () => {
    const native = (await scrape(undefined)).filter((sample) => sample.name === "facilitator_poseidon_info");
    expect(native).toEqual([{ name: "facilitator_poseidon_info", labels: { implementation: "native", path: "avx2" }, value: 1 }]);
    const lite = (await scrape(undefined, { implementation: "poseidon-lite", path: null })).filter((sample) => sample.name === "facilitator_poseidon_info");
    expect(lite).toEqual([{ name: "facilitator_poseidon_info", labels: { implementation: "poseidon-lite", path: "none" }, value: 1 }]);
  });
});

describe("facilitator_finalize_decoys_short_total", () => {
  it("adds up the short leaves each completed pass reports, and keeps the total for /admin/status", async () => {
    const metrics = createFacilitatorMetrics({
      poolStats: () => undefined,
      poseidon: { implementation: "native", path: "avx2" },
      backlog: () => Object.fromEntries(BACKLOG_STATES.map((state) => [state, { count: 0, oldestAgeSeconds: null }])) as SettlementBacklog,
      openChallenges: () => 0,
      relayerQueueDepth: () => 0,
      rpcEndpoints: () => [],
      gasBalances: () => Promise.resolve({ relayer: 0n, treasury: 0n }),
    });
    metrics.finalizePass({ decoysShort: 2, nextPassInMs: 1000 });
    metrics.finalizePass({ decoysShort: 0, nextPassInMs: 1000 });
    metrics.finalizePass();
    metrics.finalizePass({ decoysShort: 1, nextPassInMs: 1000 });
    const samples = parsePrometheusText(await metrics.registry.metrics());
    expect(sampleValue(samples, "facilitator_finalize_decoys_short_total")).toBe(3);
    expect(sampleValue(samples, "facilitator_finalize_passes_total")).toBe(4);
    expect(metrics.decoysShortTotal()).toBe(3);
  });
});
