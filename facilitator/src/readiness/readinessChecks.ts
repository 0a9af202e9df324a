/**
 * The four component checks behind `GET /readyz`. Each answers within its timeout, never throws, and reports
 * only redacted URLs and reason codes: a library error message can quote an RPC URL with its API key.
 */
import { constants } from "node:fs";
import { access } from "node:fs/promises";

import type { BurnAddressPoolStats } from "../challenges/burnAddressPool.js";
import { redactUrl } from "../config/redactUrl.js";
import { type ComponentReadiness, READINESS_REASON } from "./readinessReport.js";
import { withTimeout } from "../operator/withTimeout.js";

/** Asks the RPC for its chain id (no retries) and compares it with the configured one. */
export async function checkRpcReadiness(params: {
  rpcUrl: string;
  chainId: number;
  /** `eth_chainId` through the daemon's own client, so the probe sees the RPC exactly as settlement does. */
  requestChainId: () => Promise<number>;
  timeoutMs: number;
}): Promise<ComponentReadiness> {
  const url = redactUrl(params.rpcUrl);
  try {
    const reported = await withTimeout(params.requestChainId(), params.timeoutMs);
    if (reported !== params.chainId) {
      return { ready: false, reason: READINESS_REASON.chainIdMismatch, detail: { url, expected: params.chainId, reported } };
    }
    return { ready: true, detail: { url, chain_id: reported } };
  } catch {
    return { ready: false, reason: READINESS_REASON.unreachable, detail: { url } };
  }
}

/** Sends `GET <indexer_url>/healthz`, the same route `check` probes. */
export async function checkIndexerReadiness(params: { indexerUrl: string; timeoutMs: number }): Promise<ComponentReadiness> {
  const base = params.indexerUrl;
  const target = new URL("healthz", base.endsWith("/") ? base : `${base}/`);
  const url = redactUrl(params.indexerUrl);
  try {
    const response = await fetch(target, { signal: AbortSignal.timeout(params.timeoutMs), redirect: "manual" });
    await response.body?.cancel();
    if (response.ok) return { ready: true, detail: { url } };
    return { ready: false, reason: READINESS_REASON.unhealthy, detail: { url, status: response.status } };
  } catch {
    return { ready: false, reason: READINESS_REASON.unreachable, detail: { url } };
  }
}

/** Whether the journal file is still writable; a disabled journal (`none`) has nothing to write to. */
export async function checkJournalReadiness(path: string | null): Promise<ComponentReadiness> {
  if (path === null) return { ready: true, detail: { journal: "none" } };
  try {
    await access(path, constants.W_OK);
    return { ready: true };
  } catch {
    return { ready: false, reason: READINESS_REASON.notWritable };
  }
}

/**
 * Whether the shared database answers (the journal, claims and leases live there with `[storage]`): a
 * daemon that cannot write its journal must not take a payment it could lose.
 */
export async function checkStorageReadiness(params: { storageUrl: string; ping: () => Promise<void>; timeoutMs: number }): Promise<ComponentReadiness> {
  const url = redactUrl(params.storageUrl);
  try {
    await withTimeout(params.ping(), params.timeoutMs);
    return { ready: true, detail: { storage: "postgres", url } };
  } catch {
    return { ready: false, reason: READINESS_REASON.unreachable, detail: { storage: "postgres", url } };
  }
}

/**
 * Whether a burn address is ready to hand out. Without a pool (a non-local profile issues no offers) there is
 * no stock to run out of.
 */
export function checkStockReadiness(stats: BurnAddressPoolStats | undefined): ComponentReadiness {
  if (stats === undefined) return { ready: true, detail: { stocked: null } };
  if (stats.stopped) return { ready: false, reason: READINESS_REASON.stockStopped, detail: { stocked: 0 } };
  if (stats.stocked === 0) return { ready: false, reason: READINESS_REASON.stockEmpty, detail: { stocked: 0, deriving: stats.deriving } };
  return { ready: true, detail: { stocked: stats.stocked } };
}
