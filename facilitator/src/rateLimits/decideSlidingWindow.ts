/**
 * One sliding-window decision as a pure function of stored counts, so a database row can hold the counts
 * several instances share. The arithmetic is the in-process {@link SlidingWindowRateLimiter}'s (the
 * contract tests check both decide alike); it is repeated here because that class keeps its counts private.
 */
import type { RateLimitDecision } from "./slidingWindowRateLimiter.js";

/** The counts one key keeps. */
export type SlidingWindowCounts = { windowStart: number; previous: number; current: number };

/** Decides one request at `now` (ms) and returns the counts to store back. */
export function decideSlidingWindow(
  stored: SlidingWindowCounts,
  now: number,
  limit: number,
  windowMs: number,
): { decision: RateLimitDecision; counts: SlidingWindowCounts } {
  const windowStart = now - (now % windowMs);
  const counts =
    stored.windowStart === windowStart
      ? { ...stored }
      : { windowStart, previous: windowStart - stored.windowStart === windowMs ? stored.current : 0, current: 0 };
  const elapsed = now - windowStart;
  const { previous, current } = counts;
  if (previous * (windowMs - elapsed) + (current + 1) * windowMs <= limit * windowMs) {
    return { decision: { allowed: true }, counts: { ...counts, current: current + 1 } };
  }
  const remaining = windowMs - elapsed;
  const room = limit - 1 - current;
  if (room >= 0 && previous > 0) {
    const wait = remaining - (windowMs * room) / previous;
    if (wait < remaining) return { decision: { allowed: false, retryAfterMs: Math.max(1, Math.ceil(wait)) }, counts };
  }
  const intoNext = current > limit - 1 ? windowMs * (1 - (limit - 1) / current) : 0;
  return { decision: { allowed: false, retryAfterMs: Math.max(1, Math.ceil(remaining + intoNext)) }, counts };
}
