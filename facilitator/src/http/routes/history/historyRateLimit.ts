import { HistoryRateLimitError, type HistoryRateLimitScope } from "../../../history/errors.js";
import { rateLimitKey } from "../../rateLimitKey.js";
import { SlidingWindowRateLimiter } from "../../../rateLimits/slidingWindowRateLimiter.js";

/** Challenge issuance per client IP and subject per minute (spec). */
export const HISTORY_CHALLENGES_PER_MINUTE = 10;

/** Login verifications per client IP and subject per minute (spec). */
export const HISTORY_VERIFICATIONS_PER_MINUTE = 20;

/** Counts one request of a client IP for a subject, throwing `HistoryRateLimitError` (429) over the limit. */
export type HistoryRateLimit = (clientIp: string, subject: string) => void;

/**
 * A history login limit keyed on the client IP (as resolved through `listen.trusted_proxies`, IPv6 folded to
 * its /64) plus the requested subject, over the same sliding-window limiter as the money routes. Requests
 * with an unreadable subject share one key per client, so malformed traffic is limited too.
 */
export function historyRateLimit({
  scope,
  perMinute,
  now,
}: {
  scope: HistoryRateLimitScope;
  perMinute: number;
  now?: (() => number) | undefined;
}): HistoryRateLimit {
  const limiter = new SlidingWindowRateLimiter({ limit: perMinute, ...(now === undefined ? {} : { now }) });
  return (clientIp, subject) => {
    const decision = limiter.take(`${rateLimitKey(clientIp)}|${subject}`);
    if (!decision.allowed) throw new HistoryRateLimitError({ scope, retryAfterSeconds: Math.ceil(decision.retryAfterMs / 1000) });
  };
}
