import type { DeclineReason } from "../policy/declineReasons.js";
import { countsAgainstCap, type LedgerEntry } from "./ledgerEntry.js";
import { spendKey } from "./summarizeSpend.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** What a limit counts, besides the network and token every limit is kept per. */
type SpendLimitScope = "token" | "host" | "mcpSession";

/** One kind of spend limit: the variable that sets it, the code a refusal carries, and what it counts. */
type SpendLimitDefinition = {
  variable: string;
  reason: DeclineReason;
  /** Rolling window: only entries reserved within the last `windowMs` count; absent for a lifetime limit. */
  windowMs: number | undefined;
  scope: SpendLimitScope;
  /** How people read the limit's extent, e.g. `per day (rolling 24 h)`. */
  extent: string;
};

/**
 * Every limit the ledger enforces under its lock when a payment is reserved, checked in this order. Each is
 * kept per network and token; a month is a rolling 30 days so every window has a fixed length.
 */
export const SPEND_LIMITS = {
  maxTotal: { variable: "SVC_MAX_TOTAL", reason: "above_max_total", windowMs: undefined, scope: "token", extent: "in total" },
  maxPerHour: { variable: "SVC_MAX_PER_HOUR", reason: "above_max_per_hour", windowMs: HOUR_MS, scope: "token", extent: "per rolling hour" },
  maxPerDay: { variable: "SVC_MAX_PER_DAY", reason: "above_max_per_day", windowMs: DAY_MS, scope: "token", extent: "per rolling 24 hours" },
  maxPerWeek: { variable: "SVC_MAX_PER_WEEK", reason: "above_max_per_week", windowMs: 7 * DAY_MS, scope: "token", extent: "per rolling 7 days" },
  maxPerMonth: { variable: "SVC_MAX_PER_MONTH", reason: "above_max_per_month", windowMs: 30 * DAY_MS, scope: "token", extent: "per rolling 30 days" },
  maxPerHost: { variable: "SVC_MAX_PER_HOST", reason: "above_max_per_host", windowMs: undefined, scope: "host", extent: "per host in total" },
  maxPerMcpSession: {
    variable: "SVC_MAX_PER_MCP_SESSION",
    reason: "above_max_per_mcp_session",
    windowMs: undefined,
    scope: "mcpSession",
    extent: "per MCP server session",
  },
} as const satisfies Record<string, SpendLimitDefinition>;

/** The name of one spend limit, as `Policy` and `payer_info` key it. */
export type SpendLimitName = keyof typeof SPEND_LIMITS;

/** Every spend limit's name, in checking order. */
export const SPEND_LIMIT_NAMES = Object.keys(SPEND_LIMITS) as SpendLimitName[];

/** Which spend a limit is measured on: a network and token, and for the scoped limits a host or an MCP session. */
export type SpendScope = { network: string; asset: string; host?: string | undefined; mcpSession?: string | undefined };

/** What a limit has counted so far and when the oldest counted entry leaves its window (epoch ms; none for a lifetime limit). */
export type LimitUsage = { used: bigint; freesAt: number | undefined };

/** The lower-case host name of a ledger entry's URL: per-host budgets ignore the port, as the host allowlist does. */
export function entryHost(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return url.toLowerCase();
  }
}

/**
 * The spend counted against one limit at `now`: every entry that holds money (all but `released`, as the
 * total cap counts) on the scope's network and token, of the same host or MCP session when the limit has
 * one, reserved within the window when it has one. An entry reserved exactly `windowMs` ago has left it.
 */
export function limitUsage(entries: readonly LedgerEntry[], name: SpendLimitName, scope: SpendScope, now: number): LimitUsage {
  const definition: SpendLimitDefinition = SPEND_LIMITS[name];
  const key = spendKey(scope.network, scope.asset);
  const since = definition.windowMs === undefined ? undefined : now - definition.windowMs;
  let used = 0n;
  let oldest: number | undefined;
  for (const entry of entries) {
    if (!countsAgainstCap(entry.status) || spendKey(entry.network, entry.asset) !== key) continue;
    if (definition.scope === "host" && entryHost(entry.url) !== scope.host?.toLowerCase()) continue;
    if (definition.scope === "mcpSession" && (scope.mcpSession === undefined || entry.mcpSession !== scope.mcpSession)) continue;
    if (since !== undefined) {
      const reservedAt = Date.parse(entry.createdAt);
      if (reservedAt <= since) continue;
      oldest = oldest === undefined ? reservedAt : Math.min(oldest, reservedAt);
    }
    used += entry.amount;
  }
  return { used, freesAt: oldest === undefined || definition.windowMs === undefined ? undefined : oldest + definition.windowMs };
}
