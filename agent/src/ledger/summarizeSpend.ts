import type { Address, Network } from "@svc/scheme";

import { countsAgainstCap, type LedgerEntry } from "./ledgerEntry.js";

/** Spend on one network and token, in base units as decimal strings. */
export type SpendSummary = {
  network: Network;
  /** The token as first recorded; grouping ignores case. */
  asset: Address;
  /** Paid and confirmed by the provider. */
  settled: string;
  /** Reserved, signed, or of unknown outcome: may or may not have been paid. */
  pending: string;
  /** Refused by the provider after the tokens had left (a confirmed self-transfer burn). */
  failed: string;
  /** Everything that counts against `SVC_MAX_TOTAL`. */
  total: string;
};

/** Groups counted spend by network and token (case-insensitive), in first-seen order. */
export function summarizeSpend(entries: readonly LedgerEntry[]): SpendSummary[] {
  const groups = new Map<string, { network: Network; asset: Address; settled: bigint; pending: bigint; failed: bigint }>();
  for (const entry of entries) {
    if (!countsAgainstCap(entry.status)) continue;
    const key = spendKey(entry.network, entry.asset);
    const group = groups.get(key) ?? { network: entry.network, asset: entry.asset, settled: 0n, pending: 0n, failed: 0n };
    const amount = entry.amount;
    if (entry.status === "settled") group.settled += amount;
    else if (entry.status === "failed") group.failed += amount;
    else group.pending += amount;
    groups.set(key, group);
  }
  return [...groups.values()].map((group) => ({
    network: group.network,
    asset: group.asset,
    settled: group.settled.toString(),
    pending: group.pending.toString(),
    failed: group.failed.toString(),
    total: (group.settled + group.pending + group.failed).toString(),
  }));
}

/** The key the total cap is kept under: network plus lower-cased token address. */
export function spendKey(network: string, asset: string): string {
  return `${network}/${asset.toLowerCase()}`;
}

/** Counted spend on one network and token, in base units. */
export function spentOn(entries: readonly LedgerEntry[], network: string, asset: string): bigint {
  const key = spendKey(network, asset);
  return entries
    .filter((entry) => countsAgainstCap(entry.status) && spendKey(entry.network, entry.asset) === key)
    .reduce((sum, entry) => sum + entry.amount, 0n);
}
