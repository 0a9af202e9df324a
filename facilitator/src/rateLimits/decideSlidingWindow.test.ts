import { describe, expect, it } from "vitest";
import { SlidingWindowRateLimiter } from "./slidingWindowRateLimiter.js";
import { decideSlidingWindow, type SlidingWindowCounts } from "./decideSlidingWindow.js";

describe("decideSlidingWindow", () => {
  it("decides every request exactly as the in-process limiter over a long irregular sequence", () => {
    const windowMs = 1_000;
    const limit = 7;
    let clock = 0;
    const limiter = new SlidingWindowRateLimiter({ limit, windowMs, now: () => clock });
    let counts: SlidingWindowCounts = { windowStart: 0, previous: 0, current: 0 };
    let seed = 12345;
    let refused = 0;
    for (let step = 0; step < 5_000; step += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      clock += seed % 97 === 0 ? 2_500 : seed % 130;
      const expected = limiter.take("k");
      const { decision, counts: next } = decideSlidingWindow(counts, clock, limit, windowMs);
      counts = next;
      expect(decision).toEqual(expected);
      if (!decision.allowed) refused += 1;
    }
    expect(refused).toBeGreaterThan(100);
  });
});
