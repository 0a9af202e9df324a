/**
 * The burn-address stock's sizing arithmetic: how many addresses to keep ready for the demand observed, and
 * how long the ready ones last at it. Pure functions of rates the pool measures, so they are tested with
 * plain numbers.
 *
 * The configured size is the floor. On top of it the stock keeps the offers expected, at the observed offer
 * rate, while the workers derive a floor's worth afresh (floor ÷ derivation rate seconds): after a burst has
 * emptied the stock, that is how long the next offers would otherwise wait. So the stock grows with demand and
 * with the cost of an address (a v2 address on a slow path, `poseidon-lite`), and stays at the floor while
 * derivation is cheap or demand is low; the ceiling bounds the CPU spent ahead of demand and the entries a
 * memory-only stock loses on restart.
 */

/** How far back the offer rate looks: the time constant of its exponential weighting. */
export const OFFER_RATE_TIME_CONSTANT_MS = 60_000;

/** The weight of the newest derivation in the recent derivation time (about the last eight count). */
export const DERIVATION_TIME_WEIGHT = 1 / 8;

/** What {@link stockTarget} sizes from. */
export type StockTargetParameters = {
  /** The configured size: never aimed below. */
  floor: number;
  /** Never aimed above (at least `floor`). */
  ceiling: number;
  /** Offers taken from the stock per second, served or waiting. */
  offersPerSecond: number;
  /** What the workers derive per second while all are busy; `null` before the first derivation. */
  derivationsPerSecond: number | null;
};

/**
 * The number of addresses to keep ready: the floor plus the offers expected while the workers re-derive the
 * floor, rounded, within `floor..ceiling`. Before any derivation was timed it is the floor.
 *
 * @example
 * stockTarget({ floor: 16, ceiling: 64, offersPerSecond: 1, derivationsPerSecond: 2 }); // 24
 */
export function stockTarget({ floor, ceiling, offersPerSecond, derivationsPerSecond }: StockTargetParameters): number {
  if (derivationsPerSecond === null || derivationsPerSecond <= 0) return floor;
  const expectedDuringRefill = Math.round((offersPerSecond * floor) / derivationsPerSecond);
  return Math.min(Math.max(floor, ceiling), floor + expectedDuringRefill);
}

/** What {@link stockLastsSeconds} reads. */
export type StockLastsParameters = {
  /** Addresses ready now. */
  stocked: number;
  offersPerSecond: number;
  /** `null` (not measured yet) counts as no derivation at all. */
  derivationsPerSecond: number | null;
};

/**
 * Seconds until the ready stock runs out at the current offer rate net of derivation, or `null` when it does
 * not run out (derivation keeps up, or there is no demand).
 *
 * @example
 * stockLastsSeconds({ stocked: 30, offersPerSecond: 5, derivationsPerSecond: 2 }); // 10
 */
export function stockLastsSeconds({ stocked, offersPerSecond, derivationsPerSecond }: StockLastsParameters): number | null {
  const drain = offersPerSecond - (derivationsPerSecond ?? 0);
  return drain > 0 ? stocked / drain : null;
}

/**
 * What `workers` derive per second while all are busy, from the recent wall time of one derivation; `null`
 * before the first derivation.
 */
export function derivationsPerSecond(workers: number, recentDerivationMs: number | undefined): number | null {
  if (recentDerivationMs === undefined) return null;
  // No search takes under a millisecond; a reading below it comes from a coarse clock and must not divide by 0.
  return (workers * 1000) / Math.max(1, recentDerivationMs);
}
