/**
 * The four component checks behind `GET /readyz`. Each answers within its timeout, never throws, and reports
 * only redacted URLs and reason codes: a library error message can quote an RPC URL with its API key.
 */
import type { BurnAddressPoolStats } from "../challenges/burnAddressPool.js";
import type { RpcEndpointHealth } from "../chain/rpcEndpointHealth.js";
import { redactUrl } from "../config/redactUrl.js";
import { type ComponentReadiness, READINESS_REASON } from "./readinessReport.js";
import { withTimeout } from "./withTimeout.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";

/** One RPC endpoint as the readiness probe sees it. */
export type RpcReadinessEndpoint = {
  /** The endpoint's label (`rpc#0`), shown in the detail. */
  endpoint: string;
  url: string;
  /** `eth_chainId` on this endpoint alone (no failover), so each endpoint's health is seen on its own. */
  requestChainId: () => Promise<number>;
};

/**
 * Asks every RPC endpoint for its chain id (no retries, concurrently) and compares it with the configured one:
 * ready while at least one endpoint answers with it. Each verdict is reported to `health` too, so a recovered
 * endpoint is taken back without waiting for a request to probe it. The detail names each endpoint's state by
 * label and shows the redacted URL of the one that answered (or of the first, when none did).
 */
export async function checkRpcReadiness(params: {
  endpoints: readonly RpcReadinessEndpoint[];
  chainId: number;
  timeoutMs: number;
  health?: Pick<RpcEndpointHealth, "succeeded" | "failed" | "chainChecked"> | undefined;
}): Promise<ComponentReadiness> {
  const verdicts = await Promise.all(
    params.endpoints.map(async ({ requestChainId }, index) => {
      try {
        const reported = await withTimeout(requestChainId(), params.timeoutMs);
        if (reported === params.chainId) {
          params.health?.chainChecked(index);
          params.health?.succeeded(index);
          return { state: "up" as const, reported };
        }
        params.health?.failed(index, "ChainIdMismatchError");
        return { state: READINESS_REASON.chainIdMismatch, reported };
      } catch (error) {
        params.health?.failed(index, error instanceof Error ? error.name : "unknown");
        return { state: READINESS_REASON.unreachable, reported: undefined };
      }
    }),
  );
  const states = Object.fromEntries(params.endpoints.map(({ endpoint }, index) => [endpoint, verdicts[index]?.state ?? READINESS_REASON.unreachable]));
  const counts = { endpoints: params.endpoints.length, endpoints_up: verdicts.filter((verdict) => verdict.state === "up").length };
  const answered = verdicts.findIndex((verdict) => verdict.state === "up");
  if (answered !== -1) {
    return { ready: true, detail: { url: redactUrl(params.endpoints[answered]?.url ?? ""), chain_id: params.chainId, ...counts, ...states } };
  }
  const url = redactUrl(params.endpoints[0]?.url ?? "");
  const mismatch = verdicts.find((verdict) => verdict.state === READINESS_REASON.chainIdMismatch);
  if (mismatch?.reported !== undefined) {
    return {
      ready: false,
      reason: READINESS_REASON.chainIdMismatch,
      detail: { url, expected: params.chainId, reported: mismatch.reported, ...counts, ...states },
    };
  }
  return { ready: false, reason: READINESS_REASON.unreachable, detail: { url, ...counts, ...states } };
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

/**
 * Whether the store answers (the journal file is still writable; the database answers): a daemon that cannot
 * write its journal must not take a payment it could lose. Without a journal (`none`) the ping always answers.
 */
export async function checkStorageReadiness(params: {
  storage: Pick<FacilitatorStorage, "ping" | "readiness">;
  timeoutMs: number;
}): Promise<ComponentReadiness> {
  const { ping, readiness } = params.storage;
  try {
    await withTimeout(ping(), params.timeoutMs);
    return { ready: true, detail: readiness.detail };
  } catch {
    return {
      ready: false,
      reason: readiness.failure === "unreachable" ? READINESS_REASON.unreachable : READINESS_REASON.notWritable,
      detail: readiness.detail,
    };
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
