import { InvalidRateLimitError } from "./errors.js";

/** Options of {@link SlidingWindowRateLimiter}. */
export type SlidingWindowRateLimiterParameters = {
  /** Requests allowed per key per window; a positive integer. */
  limit: number;
  /** Window length; one minute unless a test shortens it. */
  windowMs?: number;
  /** Clock in whole milliseconds, injectable for tests; a monotonic clock by default. */
  now?: () => number;
  /** Most keys kept at once; past it the least recently used key is forgotten. */
  maxKeys?: number;
};

/** The outcome of one {@link SlidingWindowRateLimiter.take}. */
export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

type WindowCounts = { windowStart: number; previous: number; current: number };

/** Process-monotonic milliseconds: a wall-clock step backwards must not hand every client a fresh window. */
const monotonicNow = (): number => Math.floor(performance.now());

/** Default bound on tracked keys: about 100 bytes each, so a few megabytes at most. */
const DEFAULT_MAX_KEYS = 50_000;

/**
 * A per-key sliding-window counter: the previous fixed window's count, weighted by how much of it still
 * overlaps the sliding window, plus the current window's count. Unlike a bare fixed window it does not let a
 * client send twice the limit across a window boundary, and unlike a request log it keeps three numbers per
 * key. Refused requests are not counted, so a client that backs off for `retryAfterMs` gets through. Memory
 * is bounded: keys idle for two windows are swept once per window, and past `maxKeys` the least recently
 * used key is dropped.
 *
 * @example
 * const limiter = new SlidingWindowRateLimiter({ limit: 120 });
 * const decision = limiter.take(clientIp);
 * if (!decision.allowed) answer429(decision.retryAfterMs);
 */
export class SlidingWindowRateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #maxKeys: number;
  // Map iteration order is insertion order; re-inserting on every take makes the first key the least recent.
  readonly #keys = new Map<string, WindowCounts>();
  #lastSweep = Number.NEGATIVE_INFINITY;

  constructor({ limit, windowMs = 60_000, now = monotonicNow, maxKeys = DEFAULT_MAX_KEYS }: SlidingWindowRateLimiterParameters) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new InvalidRateLimitError({ limit });
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#now = now;
    this.#maxKeys = Math.max(1, maxKeys);
  }

  /** Keys currently tracked (for tests and the bound on memory). */
  get size(): number {
    return this.#keys.size;
  }

  /** Counts one request for `key` if the limit allows it, otherwise says how long to wait. */
  take(key: string): RateLimitDecision {
    const now = this.#now();
    const windowStart = now - (now % this.#windowMs);
    this.#sweep(now, windowStart);

    const counts = this.#roll(this.#keys.get(key), windowStart);
    this.#keys.delete(key);
    this.#keys.set(key, counts);
    if (this.#keys.size > this.#maxKeys) {
      const oldest = this.#keys.keys().next().value;
      if (oldest !== undefined) this.#keys.delete(oldest);
    }

    const elapsed = now - windowStart;
    if (this.#fits(counts, elapsed)) {
      counts.current += 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterMs: this.#waitMs(counts, elapsed) };
  }

  /** Moves a key's counts into the window starting at `windowStart`. */
  #roll(counts: WindowCounts | undefined, windowStart: number): WindowCounts {
    if (counts === undefined) return { windowStart, previous: 0, current: 0 };
    if (counts.windowStart === windowStart) return counts;
    const adjacent = windowStart - counts.windowStart === this.#windowMs;
    return { windowStart, previous: adjacent ? counts.current : 0, current: 0 };
  }

  /**
   * Whether one more request keeps `previous * overlap + current` within the limit, multiplied out by the
   * window length so the comparison stays in integers and a wait computed from it is never off by rounding.
   */
  #fits({ previous, current }: WindowCounts, elapsed: number): boolean {
    return previous * (this.#windowMs - elapsed) + (current + 1) * this.#windowMs <= this.#limit * this.#windowMs;
  }

  /** The shortest wait after which one more request fits again. */
  #waitMs({ previous, current }: WindowCounts, elapsed: number): number {
    const remaining = this.#windowMs - elapsed;
    const room = this.#limit - 1 - current;
    if (room >= 0 && previous > 0) {
      // Still in this window: wait until enough of the previous window has slid out.
      const wait = remaining - (this.#windowMs * room) / previous;
      if (wait < remaining) return Math.max(1, Math.ceil(wait));
    }
    // Only the next window helps; this window's count then slides out the same way.
    const intoNext = current > this.#limit - 1 ? this.#windowMs * (1 - (this.#limit - 1) / current) : 0;
    return Math.max(1, Math.ceil(remaining + intoNext));
  }

  /** Drops keys whose counts have both slid out, at most once per window so a take stays O(1) amortised. */
  #sweep(now: number, windowStart: number): void {
    if (now - this.#lastSweep < this.#windowMs) return;
    this.#lastSweep = now;
    for (const [key, counts] of this.#keys) {
      if (counts.windowStart < windowStart - this.#windowMs) this.#keys.delete(key);
    }
  }
}
