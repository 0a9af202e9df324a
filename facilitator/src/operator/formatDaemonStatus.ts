/**
 * The human summary `facilitator status` prints: readiness first (the question asked most), then what is
 * stuck (backlog ages, failed entries, late burns), then the supplies that run out (stock, gas), with the
 * Poseidon the stock is derived with beside the stock.
 */
import { formatEther } from "viem";

import { BACKLOG_STATES } from "./settlementBacklog.js";
import type { DaemonStatus } from "./fetchDaemonStatus.js";

/** Renders `status` as newline-terminated lines. */
export function formatDaemonStatus(status: DaemonStatus): string {
  const { readiness, status: admin } = status;
  const lines: string[] = [`facilitator at ${status.url} (profile ${admin.profile ?? "unset"}, chain ${admin.chainId})`];
  if (readiness.status === "ready") lines.push("readiness: ready");
  else {
    lines.push(`readiness: NOT READY (${(readiness.failing ?? []).join(", ")})`);
    for (const name of readiness.failing ?? []) {
      const component = readiness.components[name as keyof typeof readiness.components];
      const url = typeof component?.detail?.url === "string" ? ` ${component.detail.url}` : "";
      lines.push(`  ${name}: ${component?.reason ?? "failed"}${url}`);
    }
  }
  lines.push(...rpcLines(admin.rpcEndpoints));
  lines.push("backlog:");
  for (const state of BACKLOG_STATES) {
    const bucket = admin.backlog[state];
    const age = bucket.oldestAgeSeconds === null ? "" : `  oldest ${formatAge(bucket.oldestAgeSeconds)}`;
    lines.push(`  ${state.padEnd(10)} ${String(bucket.count).padStart(6)}${age}`);
  }
  lines.push(`open challenges: ${admin.openChallenges}`);
  if (admin.finalize) {
    const note = admin.finalize.releasedAlone === 0 ? "" : "  (minted at max_delay without k mature same-amount payments: linkable)";
    lines.push(`released alone: ${admin.finalize.releasedAlone}${note}`);
    if (admin.finalize.decoysShort !== undefined) {
      const short = admin.finalize.decoysShort === 0 ? "" : "  (sent to the indexer with fewer than 3 same-value decoys)";
      lines.push(`leaves short of decoys: ${admin.finalize.decoysShort}${short}`);
    }
  }
  if (admin.witnesses) lines.push(witnessLine(admin.witnesses));
  lines.push(...entryLines("failed entries", status.failed));
  lines.push(...entryLines("late burns", status.lateBurns));
  lines.push(...stockLines(admin.stock));
  lines.push(`poseidon: ${admin.poseidon.implementation}${admin.poseidon.path === null ? " (no search path)" : `, path ${admin.poseidon.path}`}`);
  lines.push(`relayer ${admin.relayer.address}: ${formatBalance(admin.relayer.balanceWei)}, queue depth ${admin.relayer.queueDepth}`);
  lines.push(`treasury ${admin.treasury.address}: ${formatBalance(admin.treasury.balanceWei)}`);
  if (admin.minter) lines.push(`minter ${admin.minter.address}: ${formatBalance(admin.minter.balanceWei)}`);
  return `${lines.join("\n")}\n`;
}

function witnessLine(witnesses: NonNullable<DaemonStatus["status"]["witnesses"]>): string {
  const proved = witnesses.provedIndex === null ? "proved index not read yet" : `${witnesses.leavesBehind} behind proved index ${witnesses.provedIndex}`;
  const checked = witnesses.lastCheckedIndex === null ? "no root checked yet" : `root checked at ${witnesses.lastCheckedIndex}`;
  const height = witnesses.finalBlock === null ? `next block ${witnesses.nextBlock}` : `next block ${witnesses.nextBlock} of final ${witnesses.finalBlock}`;
  return `witnesses (self): ${witnesses.leaves} leaves, ${proved}, ${checked}; ${height}; ${witnesses.trackedPaths} paths kept`;
}

function rpcLines(endpoints: DaemonStatus["status"]["rpcEndpoints"]): string[] {
  const up = endpoints.filter((endpoint) => endpoint.up).length;
  return [
    `rpc endpoints: ${up} of ${endpoints.length} up`,
    ...endpoints.map((endpoint) => {
      const counts = `${endpoint.errors} errors, ${endpoint.skips} skipped`;
      if (endpoint.up) return `  ${endpoint.endpoint} ${endpoint.origin}: up, ${counts}`;
      const retry = endpoint.retryInMs === null ? "" : `, next try in ${formatAge(Math.ceil(endpoint.retryInMs / 1000))}`;
      return `  ${endpoint.endpoint} ${endpoint.origin}: DOWN (${endpoint.lastError ?? "unknown error"}), ${counts}${retry}`;
    }),
  ];
}

function stockLines(stock: DaemonStatus["status"]["stock"]): string[] {
  if (stock === null) return ["burn-address stock: none (this profile issues no offers)"];
  const derivations = stock.derivationsPerSecond === null ? "not timed yet" : `${formatRate(stock.derivationsPerSecond)}/s`;
  const lasts = stock.lastsSeconds === null ? "indefinitely" : formatAge(Math.floor(stock.lastsSeconds));
  return [
    `burn-address stock: ${stock.stocked} ready, ${stock.deriving} deriving, target ${stock.target} (${stock.floor}..${stock.ceiling})${stock.stopped ? ", POOL STOPPED" : ""}`,
    `  offers ${formatRate(stock.offersPerSecond)}/s, derivations ${derivations}: lasts ${lasts} at the current rate`,
  ];
}

/** At most two decimals, no trailing zeros: `0.42`, `12`. */
function formatRate(perSecond: number): string {
  return String(Number(perSecond.toFixed(2)));
}

function entryLines(title: string, page: DaemonStatus["failed"]): string[] {
  if (page.total === 0) return [`${title}: none`];
  const shown = page.settlements.length < page.total ? ` (first ${page.settlements.length})` : "";
  return [
    `${title}: ${page.total}${shown}`,
    ...page.settlements.map((entry) => `  ${entry.challengeNonce} ${entry.path} ${entry.amount}: ${entry.reason ?? "no reason recorded"}`),
  ];
}

function formatBalance(wei: string | null): string {
  return wei === null ? "balance unknown (RPC did not answer)" : `${formatEther(BigInt(wei))} ETH`;
}

/** `3d 4h`, `2h 5m`, `4m 10s`, `12s`: two units are enough to see what is stuck. */
export function formatAge(seconds: number): string {
  const units: [string, number][] = [
    ["d", 86_400],
    ["h", 3_600],
    ["m", 60],
    ["s", 1],
  ];
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of units) {
    const count = Math.floor(rest / size);
    if (count > 0 || (unit === "s" && parts.length === 0)) parts.push(`${count}${unit}`);
    rest -= count * size;
    if (parts.length === 2) break;
  }
  return parts.join(" ");
}
