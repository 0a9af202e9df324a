import type { LedgerEntry } from "../ledger/ledgerEntry.js";
import { remainingUnder } from "../ledger/remainingUnder.js";
import { entryHost, limitUsage, SPEND_LIMIT_NAMES, SPEND_LIMITS, type SpendLimitName } from "../ledger/spendLimits.js";
import { spendKey } from "../ledger/summarizeSpend.js";
import type { Policy } from "./policy.js";
import { type SpendAmount, spendAmountInBaseUnits, spendAmountText } from "./spendAmount.js";

/** One configured ledger limit on one network and token (and host or MCP session, for the scoped ones). */
export type LimitStatus = {
  limit: SpendLimitName;
  variable: string;
  /** How far the limit reaches, e.g. `per rolling 24 hours`. */
  extent: string;
  network: string;
  asset: string;
  /** The host name for `SVC_MAX_PER_HOST`, the session id for `SVC_MAX_PER_MCP_SESSION`; null for a host or session not seen yet. */
  scope: string | null;
  configured: SpendAmount;
  /** The limit in the token's base units; undefined when it is in token units and the decimals are unknown. */
  cap: bigint | undefined;
  /** Counted spend in base units: what `reserve` would add the next payment to. */
  used: bigint;
  /** What may still be reserved; undefined when the cap is unknown. */
  left: bigint | undefined;
  /** When the oldest counted payment leaves a rolling window (epoch ms); undefined for a lifetime limit or an empty window. */
  freesAt: number | undefined;
};

/** What `limitsStatus` reads. */
export type LimitsStatusInput = {
  entries: readonly LedgerEntry[];
  policy: Pick<Policy, SpendLimitName | "allowedNetwork" | "allowedToken">;
  /** The token's decimals once read; limits in token units convert with them. */
  decimalsFor: (asset: string) => number | undefined;
  now: number;
  /** Tokens on the allowed network to report even before any spend in them. */
  assets?: readonly string[] | undefined;
  /** The MCP session asking; without one the session budget reads as a fresh session's. */
  mcpSession?: string | undefined;
};

/**
 * Every configured ledger limit with what it has counted, what is left and when a rolling window frees up,
 * per network and token spent on (and the allowed token, before any spend), computed as `Ledger.reserve`
 * counts. Shared by `svc-agent limits`, `spending_status`, `payer_info` and the TUI.
 */
export function limitsStatus(input: LimitsStatusInput): LimitStatus[] {
  const { entries, policy, decimalsFor, now, mcpSession } = input;
  const tokens = new Map<string, { network: string; asset: string }>();
  for (const asset of [...(policy.allowedToken === undefined ? [] : [policy.allowedToken]), ...(input.assets ?? [])]) {
    tokens.set(spendKey(policy.allowedNetwork, asset), { network: policy.allowedNetwork, asset });
  }
  for (const entry of entries) {
    const key = spendKey(entry.network, entry.asset);
    if (!tokens.has(key)) tokens.set(key, { network: entry.network, asset: entry.asset });
  }
  const rows: LimitStatus[] = [];
  for (const { network, asset } of tokens.values()) {
    const ofToken = entries.filter((entry) => spendKey(entry.network, entry.asset) === spendKey(network, asset));
    for (const limit of SPEND_LIMIT_NAMES) {
      const configured = policy[limit];
      if (configured === undefined) continue;
      const definition = SPEND_LIMITS[limit];
      const cap = spendAmountInBaseUnits(configured, decimalsFor(asset));
      const scopes: (string | null)[] =
        definition.scope === "host"
          ? [...new Set(ofToken.map((entry) => entryHost(entry.url)))]
          : definition.scope === "mcpSession"
            ? [mcpSession ?? null]
            : [null];
      for (const scope of scopes.length === 0 ? [null] : scopes) {
        const usage =
          scope === null && definition.scope !== "token"
            ? { used: 0n, freesAt: undefined }
            : limitUsage(entries, limit, { network, asset, host: scope ?? undefined, mcpSession: scope ?? undefined }, now);
        rows.push({
          limit,
          variable: definition.variable,
          extent: definition.extent,
          network,
          asset,
          scope,
          configured,
          cap,
          used: usage.used,
          left: cap === undefined ? undefined : remainingUnder(cap, usage.used),
          freesAt: usage.freesAt,
        });
      }
    }
  }
  return rows;
}

/** A limit status as JSON: amounts in base units as strings, times as ISO strings, null when unknown. */
export function limitStatusJson(row: LimitStatus): Record<string, string | null> {
  return {
    limit: row.limit,
    variable: row.variable,
    network: row.network,
    asset: row.asset,
    scope: row.scope,
    configured: spendAmountText(row.configured),
    capBaseUnits: row.cap?.toString() ?? null,
    usedBaseUnits: row.used.toString(),
    leftBaseUnits: row.left?.toString() ?? null,
    freesAt: row.freesAt === undefined ? null : new Date(row.freesAt).toISOString(),
  };
}
