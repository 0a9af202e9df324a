/**
 * When each payment of the privacy scenario arrives and at which price: a Poisson process (exponential gaps)
 * with the prices dealt in equal shares and shuffled, from a seeded generator so that every run, and both
 * policies of one run, see the same arrivals.
 */

/** One scheduled payment. */
export type Arrival = {
  /** Milliseconds after the start of the run. */
  atMs: number;
  /** Index into the scenario's prices. */
  priceIndex: number;
};

/** Options of {@link arrivalSchedule}. */
export type ArrivalScheduleParameters = {
  count: number;
  /** Mean gap between arrivals, ms. */
  meanGapMs: number;
  /** Number of distinct prices; each gets `count / prices` arrivals (the first few one more when it does not divide). */
  prices: number;
  seed: number;
};

/** Mulberry32: a small, well-mixed 32-bit generator; uniform in [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The schedule, in arrival order; the first payment arrives at 0.
 * @example
 * arrivalSchedule({ count: 51, meanGapMs: 500, prices: 3, seed: 19 }).length; // 51
 */
export function arrivalSchedule(parameters: ArrivalScheduleParameters): Arrival[] {
  const random = seededRandom(parameters.seed);
  const prices = Array.from({ length: parameters.count }, (_, index) => index % parameters.prices);
  for (let index = prices.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [prices[index], prices[other]] = [prices[other] ?? 0, prices[index] ?? 0];
  }
  let atMs = 0;
  return prices.map((priceIndex, index) => {
    if (index > 0) atMs += -Math.log(1 - random()) * parameters.meanGapMs;
    return { atMs: Math.round(atMs), priceIndex };
  });
}
