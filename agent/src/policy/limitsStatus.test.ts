import { describe, expect, it } from "vitest";

import type { LedgerEntry } from "../ledger/ledgerEntry.js";
import { buildReserveInput } from "../testing/buildReserveInput.js";
import { limitStatusJson, limitsStatus } from "./limitsStatus.js";

const NOW = Date.parse("2026-01-10T12:00:00.000Z");
const HOUR = 3_600_000;
const TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

function entry(amount: bigint, reservedAt: number, overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  const at = new Date(reservedAt).toISOString();
  return { ...buildReserveInput({ amount }), id: "0123456789ab", createdAt: at, updatedAt: at, status: "settled", ...overrides };
}

const basePolicy = {
  allowedNetwork: "eip155:31337",
  allowedToken: undefined,
  maxTotal: undefined,
  maxPerHour: undefined,
  maxPerDay: undefined,
  maxPerWeek: undefined,
  maxPerMonth: undefined,
  maxPerHost: undefined,
  maxPerMcpSession: undefined,
} as const;

describe("limitsStatus", () => {
  it("reports each configured limit with what it counts, what is left and when its window frees up", () => {
    const entries = [
      entry(300n, NOW - 30 * HOUR),
      entry(200n, NOW - 2 * HOUR, { url: "http://api.example.com/a" }),
      entry(100n, NOW - HOUR / 2),
      entry(999n, NOW - HOUR / 4, { status: "released" }),
    ];
    const rows = limitsStatus({
      entries,
      policy: {
        ...basePolicy,
        maxTotal: { unit: "token", text: "0.000000000000001" },
        maxPerDay: { unit: "base", value: 250n },
        maxPerHost: { unit: "base", value: 500n },
      },
      decimalsFor: () => 18,
      now: NOW,
    });
    expect(rows.map(limitStatusJson)).toEqual([
      {
        limit: "maxTotal",
        variable: "SVC_MAX_TOTAL",
        network: "eip155:31337",
        asset: TOKEN,
        scope: null,
        configured: "0.000000000000001",
        capBaseUnits: "1000",
        usedBaseUnits: "600",
        leftBaseUnits: "400",
        freesAt: null,
      },
      {
        limit: "maxPerDay",
        variable: "SVC_MAX_PER_DAY",
        network: "eip155:31337",
        asset: TOKEN,
        scope: null,
        configured: "250base",
        capBaseUnits: "250",
        usedBaseUnits: "300",
        leftBaseUnits: "0",
        freesAt: new Date(NOW + 22 * HOUR).toISOString(),
      },
      expect.objectContaining({ limit: "maxPerHost", scope: "127.0.0.1", usedBaseUnits: "400", leftBaseUnits: "100" }),
      expect.objectContaining({ limit: "maxPerHost", scope: "api.example.com", usedBaseUnits: "200", leftBaseUnits: "300" }),
    ]);
  });

  it("reads a token-unit limit as unknown without decimals, and the session budget per session", () => {
    const entries = [entry(40n, NOW, { mcpSession: "a" }), entry(50n, NOW)];
    const policy = { ...basePolicy, maxPerWeek: { unit: "token", text: "1.0" }, maxPerMcpSession: { unit: "base", value: 100n } } as const;
    const rows = limitsStatus({ entries, policy, decimalsFor: () => undefined, now: NOW, mcpSession: "a" });
    expect(rows).toMatchObject([
      { limit: "maxPerWeek", cap: undefined, used: 90n, left: undefined, freesAt: NOW + 7 * 24 * HOUR },
      { limit: "maxPerMcpSession", scope: "a", used: 40n, left: 60n },
    ]);
    expect(limitsStatus({ entries, policy, decimalsFor: () => undefined, now: NOW })[1]).toMatchObject({ scope: null, used: 0n, left: 100n });
  });

  it("lists the allowed token before any spend, and nothing when no limit is set", () => {
    const policy = { ...basePolicy, allowedToken: TOKEN, maxPerHour: { unit: "base", value: 5n } } as const;
    expect(limitsStatus({ entries: [], policy, decimalsFor: () => 18, now: NOW })).toMatchObject([
      { limit: "maxPerHour", used: 0n, left: 5n, freesAt: undefined },
    ]);
    expect(limitsStatus({ entries: [entry(1n, NOW)], policy: basePolicy, decimalsFor: () => 18, now: NOW })).toEqual([]);
  });
});
