/**
 * The cached readiness probe: runs the component checks at most once per `cacheMs` (concurrent callers share
 * one run), so `/challenge` can consult readiness on every request without a network round trip each time.
 */
import type { ComponentReadiness, ReadinessComponent, ReadinessReport } from "./readinessReport.js";

/** How long one probe result is reused by default: short enough to notice an outage within seconds. */
export const DEFAULT_READINESS_CACHE_MS = 2_000;

/** The component checks, each resolving (never rejecting) with its verdict. */
export type ReadinessChecks = Record<ReadinessComponent, () => Promise<ComponentReadiness> | ComponentReadiness>;

/** Reads the current readiness. */
export type ReadinessProbe = {
  /** The latest report, re-probed when the cached one is older than the cache lifetime. */
  current: () => Promise<ReadinessReport>;
};

/**
 * Creates the probe over `checks`.
 *
 * @example
 * const readiness = createReadinessProbe({ checks });
 * const { ready, components } = await readiness.current();
 */
export function createReadinessProbe(params: { checks: ReadinessChecks; cacheMs?: number; now?: () => number }): ReadinessProbe {
  const cacheMs = params.cacheMs ?? DEFAULT_READINESS_CACHE_MS;
  const now = params.now ?? Date.now;
  let cached: ReadinessReport | undefined;
  let running: Promise<ReadinessReport> | undefined;

  const probe = async (): Promise<ReadinessReport> => {
    const entries = await Promise.all(Object.entries(params.checks).map(async ([name, check]) => [name, await check()] as const));
    const components = Object.fromEntries(entries) as Record<ReadinessComponent, ComponentReadiness>;
    return { ready: entries.every(([, verdict]) => verdict.ready), checkedAt: now(), components };
  };

  return {
    current: () => {
      if (cached !== undefined && now() - cached.checkedAt < cacheMs) return Promise.resolve(cached);
      running ??= probe()
        .then((report) => {
          cached = report;
          return report;
        })
        .finally(() => {
          running = undefined;
        });
      return running;
    },
  };
}
