import { RateLimitExceededError, type RateLimitScope } from "../errors/http.js";
import type { HttpMiddleware } from "./httpState.js";
import { rateLimitKey } from "./rateLimitKey.js";
import { SlidingWindowRateLimiter } from "./slidingWindowRateLimiter.js";

/** Options of {@link rateLimit}. */
export type RateLimitParameters = {
  /** Requests per client key per minute; 0 or less disables the limit. */
  perMinute: number;
  /** Which limit this is; named in the 429 message so a client knows which budget it spent. */
  scope: RateLimitScope;
  /** Clock in milliseconds, for tests. */
  now?: (() => number) | undefined;
};

/**
 * A per-client limit for the routes it is mounted on, keyed on `ctx.state.clientIp` (so it must run after
 * `resolveClientIp`). Over the limit it throws `RateLimitExceededError`, which the error middleware answers
 * with 429 and `Retry-After`. One instance is one budget: mounting the same middleware on several routes
 * makes them share it.
 */
export function rateLimit({ perMinute, scope, now }: RateLimitParameters): HttpMiddleware {
  if (perMinute <= 0) return async (_ctx, next) => next();
  const limiter = new SlidingWindowRateLimiter({ limit: perMinute, ...(now === undefined ? {} : { now }) });
  return async (ctx, next) => {
    const decision = limiter.take(rateLimitKey(ctx.state.clientIp));
    if (!decision.allowed) {
      throw new RateLimitExceededError({ scope, retryAfterSeconds: Math.ceil(decision.retryAfterMs / 1000) });
    }
    await next();
  };
}
