import { RateLimitExceededError, type RateLimitScope } from "./errors.js";
import type { AuthenticatedProvider, HttpMiddleware, HttpState } from "./httpState.js";
import { rateLimitKey } from "./rateLimitKey.js";
import { StorageUnavailableError } from "../storage/errors.js";
import type { RateLimitPort } from "../storage/storagePorts.js";
import { SlidingWindowRateLimiter } from "../rateLimits/slidingWindowRateLimiter.js";

/** How one limit keys and sizes its buckets. */
export type CallerRateLimitParameters = {
  scope: RateLimitScope;
  /** Requests per minute per client IP when the caller is not an authenticated provider; 0 or less disables. */
  perMinuteByIp: number;
  /** The bucket and budget of an authenticated provider's request; a budget of 0 or less disables. */
  forProvider: (provider: AuthenticatedProvider, state: HttpState) => { bucket: string; perMinute: number };
  /** Clock in milliseconds, for tests. */
  now?: (() => number) | undefined;
  /** Counts shared by several instances (the storage's rate limits); in-process counts when omitted. */
  counts?: RateLimitPort | undefined;
};

/** A per-minute budget's window. */
const MINUTE_MS = 60_000;

/**
 * A rate limit that follows the caller's identity: per client IP for anonymous callers (the behaviour
 * without `[providers.*]`), and for an authenticated provider whatever bucket and budget `forProvider`
 * gives (per provider for the money endpoints, per provider and payer for issuance). Each distinct budget
 * has its own sliding-window limiter, so providers with different limits never share counts (and shared
 * counts that cannot be reached fall back to this instance's own). Over the limit
 * it throws `RateLimitExceededError` (429 with `Retry-After`). Mount after `resolveClientIp` and
 * `identifyProvider`.
 */
export function callerRateLimit(parameters: CallerRateLimitParameters): HttpMiddleware {
  const limiters = new Map<number, SlidingWindowRateLimiter>();
  const limiter = (perMinute: number) => {
    let found = limiters.get(perMinute);
    if (found === undefined) {
      found = new SlidingWindowRateLimiter({ limit: perMinute, ...(parameters.now === undefined ? {} : { now: parameters.now }) });
      limiters.set(perMinute, found);
    }
    return found;
  };
  return async (ctx, next) => {
    const { bucket, perMinute } = ctx.state.provider
      ? parameters.forProvider(ctx.state.provider, ctx.state)
      : { bucket: rateLimitKey(ctx.state.clientIp), perMinute: parameters.perMinuteByIp };
    if (perMinute > 0) {
      const local = () => limiter(perMinute).take(bucket);
      // With the shared counts unreachable this instance still limits on its own, and the request goes on to
      // the route, whose answer names the outage (`storage_unavailable`) instead of a bare 503 from here.
      const decision =
        parameters.counts === undefined
          ? local()
          : await parameters.counts.take(`${parameters.scope}|${bucket}`, perMinute, MINUTE_MS).catch((error: unknown) => {
              if (error instanceof StorageUnavailableError) return local();
              throw error;
            });
      if (!decision.allowed) {
        throw new RateLimitExceededError({ scope: parameters.scope, retryAfterSeconds: Math.ceil(decision.retryAfterMs / 1000) });
      }
    }
    await next();
  };
}
