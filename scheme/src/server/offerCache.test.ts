import { describe, expect, it } from "vitest";

import { InvalidServerOptionError } from "./errors.js";
import { DEFAULT_MAX_CACHED_OFFERS, OfferCache } from "./offerCache.js";

/** A cache over a clock the test moves by hand. */
function buildCache(maxEntries?: number) {
  const clock = { now: 1_000 };
  const cache = new OfferCache<{ expiresAt: number; label: string }>({ maxEntries, now: () => clock.now });
  return { cache, clock };
}

describe("OfferCache", () => {
  it("keeps an entry until it expires, inclusive of the expiry second", () => {
    const { cache, clock } = buildCache();
    cache.set("a", { expiresAt: 1_010, label: "a" });
    clock.now = 1_010;
    expect(cache.get("a")?.label).toBe("a");
    clock.now = 1_011;
    expect(cache.get("a")).toBeUndefined();
  });

  it("still lets peek find an expired entry, so a request completing it is not cut off", () => {
    const { cache, clock } = buildCache();
    cache.set("a", { expiresAt: 1_010, label: "a" });
    clock.now = 2_000;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.peek("a")?.label).toBe("a");
  });

  it("evicts expired entries before live ones when full", () => {
    const { cache, clock } = buildCache(2);
    cache.set("old", { expiresAt: 1_001, label: "old" });
    cache.set("live", { expiresAt: 1_100, label: "live" });
    clock.now = 1_050;
    cache.set("new", { expiresAt: 1_200, label: "new" });
    expect(cache.peek("old")).toBeUndefined();
    expect(cache.get("live")?.label).toBe("live");
    expect(cache.get("new")?.label).toBe("new");
  });

  it("evicts the least recently used live entry when nothing has expired", () => {
    const { cache } = buildCache(2);
    cache.set("a", { expiresAt: 2_000, label: "a" });
    cache.set("b", { expiresAt: 2_000, label: "b" });
    cache.get("a");
    cache.set("c", { expiresAt: 2_000, label: "c" });
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")?.label).toBe("a");
    expect(cache.get("c")?.label).toBe("c");
    expect(cache.size).toBe(2);
  });

  it("keys by the exact string, never by a re-cased one", () => {
    const { cache } = buildCache();
    cache.set("0xAbC", { expiresAt: 2_000, label: "mixed" });
    expect(cache.get("0xabc")).toBeUndefined();
    expect(cache.get("0xAbC")?.label).toBe("mixed");
  });

  it("defaults to the spec's 5000 entries", () => {
    const { cache } = buildCache();
    for (let index = 0; index <= DEFAULT_MAX_CACHED_OFFERS; index++) cache.set(String(index), { expiresAt: 2_000, label: "" });
    expect(cache.size).toBe(5000);
    expect(cache.peek("0")).toBeUndefined();
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses maxEntries %s", (maxEntries) => {
    expect(() => buildCache(maxEntries)).toThrow(InvalidServerOptionError);
  });
});
