import { NotReadyError } from "../readiness/errors.js";
import { failingComponents } from "../readiness/failingComponents.js";
import { READINESS_REASON, type ReadinessReport } from "../readiness/readinessReport.js";
import type { AppDependencies } from "./appDependencies.js";
import type { HttpMiddleware } from "./httpState.js";

/** `Retry-After` of a not-ready refusal: about when the cached probe will have been refreshed. */
export const NOT_READY_RETRY_AFTER_SECONDS = 5;

/**
 * Refuses a request with 503 and `Retry-After` while a component that settlement itself needs failed the last
 * readiness probe (RPC, journal, a stopped burn-address pool), so `/challenge` issues no offer that could not
 * settle. The probe is cached, so this costs no network round trip per request. Two failures of `/readyz` do
 * not refuse: an indexer outage only delays finalization (the finalize loop waits for it, acceptance does not
 * need it), and a stock that is merely empty while workers derive is better served by the pool's own bounded
 * wait than by a retry, so a burst of 402s does not turn into a burst of 503s.
 */
export function requireReady(deps: Pick<AppDependencies, "readiness">): HttpMiddleware {
  return async (ctx, next) => {
    const failing = issuanceBlockers(await deps.readiness());
    if (failing.length > 0) throw new NotReadyError({ failing, retryAfterSeconds: NOT_READY_RETRY_AFTER_SECONDS });
    await next();
  };
}

function issuanceBlockers(report: ReadinessReport): string[] {
  if (report.ready) return [];
  return failingComponents(report).filter(
    (name) => name !== "indexer" && !(name === "stock" && report.components.stock.reason === READINESS_REASON.stockEmpty),
  );
}
