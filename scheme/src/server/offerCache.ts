import { InvalidServerOptionError } from "./errors.js";

/** Default number of offers a provider remembers (the spec's `maxCachedOffers`). */
export const DEFAULT_MAX_CACHED_OFFERS = 5000;

/** Anything the cache can hold: it only needs to know when the value stops being live. */
export type Expiring = {
  /** Unix seconds; the value is live while `now <= expiresAt`, like the facilitator's challenge record. */
  readonly expiresAt: number;
};

/** How the cache is bounded and what time it is. */
export type OfferCacheParameters = {
  /** Upper bound on entries; default {@link DEFAULT_MAX_CACHED_OFFERS}. */
  maxEntries?: number | undefined;
  /** Unix seconds. */
  now: () => number;
};

/**
 * The provider's memory of the offers it issued, keyed by `challengeNonce` as the facilitator spelled it. An
 * offer stays until it expires, so the paid retry (and an identical re-send) finds it; when full, expired
 * entries go first and then the least recently used, which is the bound the spec accepts: an evicted offer
 * fails the match and its client gets a fresh 402.
 *
 * Expired entries are not removed on read, only reported missing, so `peek` still finds an entry that
 * expired a moment after the request that is completing it looked it up.
 */
export class OfferCache<Value extends Expiring> {
  private readonly entries = new Map<string, Value>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(parameters: OfferCacheParameters) {
    const maxEntries = parameters.maxEntries ?? DEFAULT_MAX_CACHED_OFFERS;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new InvalidServerOptionError({ option: "maxCachedOffers", expected: "a positive integer" });
    }
    this.maxEntries = maxEntries;
    this.now = parameters.now;
  }

  /** Number of entries held, live or not yet swept. */
  get size(): number {
    return this.entries.size;
  }

  /** The live entry for `key`, marked as recently used; `undefined` once it has expired. */
  get(key: string): Value | undefined {
    const value = this.entries.get(key);
    if (value === undefined || this.now() > value.expiresAt) return undefined;
    // Re-inserting moves the key to the end of the Map's order, which is the LRU order.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** The entry for `key` whether or not it has expired, without touching the LRU order. */
  peek(key: string): Value | undefined {
    return this.entries.get(key);
  }

  /** Stores `value`, making room first when the cache is full. */
  set(key: string, value: Value): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.makeRoom();
    this.entries.set(key, value);
  }

  private makeRoom(): void {
    const now = this.now();
    for (const [key, value] of this.entries) {
      if (now > value.expiresAt) this.entries.delete(key);
    }
    // Map iteration starts at the least recently used key.
    for (const key of this.entries.keys()) {
      if (this.entries.size < this.maxEntries) break;
      this.entries.delete(key);
    }
  }
}
