import { describe, expect, it } from "vitest";

import { InvalidRateLimitError } from "./errors.js";
import { SlidingWindowRateLimiter } from "./slidingWindowRateLimiter.js";

const MINUTE = 60_000;

function clock(start = 10 * MINUTE): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe("SlidingWindowRateLimiter", () => {
  it("allows the limit within a window, then refuses with the wait until enough has slid out", () => {
    const time = clock();
    const limiter = new SlidingWindowRateLimiter({ limit: 3, now: time.now });
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")]).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }]);
    time.advance(20_000);
    // 40 s to the window's end, then 20 s until a third of the three requests has slid out of the window.
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterMs: 60_000 });
    time.advance(59_999);
    expect(limiter.take("a").allowed).toBe(false);
    time.advance(1);
    expect(limiter.take("a").allowed).toBe(true);
  });

  it("keeps keys apart", () => {
    const limiter = new SlidingWindowRateLimiter({ limit: 1, now: clock().now });
    expect(limiter.take("a").allowed).toBe(true);
    expect(limiter.take("b").allowed).toBe(true);
    expect(limiter.take("a").allowed).toBe(false);
  });

  it("does not allow twice the limit across a window boundary", () => {
    const time = clock();
    const limiter = new SlidingWindowRateLimiter({ limit: 4, now: time.now });
    time.advance(MINUTE - 1);
    for (let i = 0; i < 4; i += 1) expect(limiter.take("a").allowed).toBe(true);
    time.advance(2);
    // The previous window still weighs almost fully, so a burst right after the boundary is refused.
    expect(limiter.take("a").allowed).toBe(false);
    // Half the previous window has slid out: 4 * 0.5 = 2, so two more fit.
    time.advance(MINUTE / 2 - 1);
    expect(limiter.take("a").allowed).toBe(true);
    expect(limiter.take("a").allowed).toBe(true);
    expect(limiter.take("a").allowed).toBe(false);
  });

  it("reports a wait after which the request is allowed, and not much earlier", () => {
    const time = clock();
    const limiter = new SlidingWindowRateLimiter({ limit: 4, now: time.now });
    for (let i = 0; i < 4; i += 1) limiter.take("a");
    time.advance(MINUTE + 10_000);
    for (let i = 0; i < 2; i += 1) limiter.take("a");
    const decision = limiter.take("a");
    expect(decision.allowed).toBe(false);
    const wait = decision.allowed ? 0 : decision.retryAfterMs;
    time.advance(wait - 1_000);
    expect(limiter.take("a").allowed).toBe(false);
    time.advance(1_000);
    expect(limiter.take("a").allowed).toBe(true);
  });

  it("does not count refused requests", () => {
    const time = clock();
    const limiter = new SlidingWindowRateLimiter({ limit: 1, now: time.now });
    limiter.take("a");
    for (let i = 0; i < 100; i += 1) limiter.take("a");
    time.advance(2 * MINUTE);
    expect(limiter.take("a").allowed).toBe(true);
  });

  it("forgets keys idle for two windows", () => {
    const time = clock();
    const limiter = new SlidingWindowRateLimiter({ limit: 1, now: time.now });
    for (let i = 0; i < 100; i += 1) limiter.take(`key-${i}`);
    expect(limiter.size).toBe(100);
    time.advance(2 * MINUTE);
    limiter.take("fresh");
    expect(limiter.size).toBe(1);
  });

  it("never holds more than maxKeys, dropping the least recently used", () => {
    const limiter = new SlidingWindowRateLimiter({ limit: 1, now: clock().now, maxKeys: 3 });
    limiter.take("a");
    limiter.take("b");
    limiter.take("c");
    limiter.take("a");
    limiter.take("d");
    expect(limiter.size).toBe(3);
    // "a" was used recently and is still limited; "b" was dropped and starts over.
    expect(limiter.take("a").allowed).toBe(false);
    expect(limiter.take("b").allowed).toBe(true);
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses a limit of %s", (limit) => {
    expect(() => new SlidingWindowRateLimiter({ limit })).toThrow(InvalidRateLimitError);
  });
});
