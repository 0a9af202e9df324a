/**
 * The rate of an event stream, exponentially weighted with one time constant: each event adds `1/τ` and the
 * sum decays by `e^(-Δt/τ)`, so under a steady rate `r` the value settles at `r` (after about three time
 * constants), and a pause lets it fall towards zero without a timer. It keeps one number and one time, not
 * a list of events, and a short burst moves it in proportion to the burst's share of the time constant.
 */

/**
 * An exponentially weighted events-per-second rate, fed and read with explicit times (milliseconds on one
 * monotonic clock), so tests drive it with a clock of their own.
 *
 * @example
 * const rate = new DecayingRate(60_000);
 * rate.record(performance.now());
 * rate.perSecond(performance.now()); // about 1/60 right after the first event
 */
export class DecayingRate {
  readonly #timeConstantMs: number;
  // The weighted sum in events per millisecond, as of `#at`.
  #perMs = 0;
  #at: number | undefined;

  constructor(timeConstantMs: number) {
    this.#timeConstantMs = timeConstantMs;
  }

  /** Counts one event at `atMs`. */
  record(atMs: number): void {
    this.#perMs = this.#decayedTo(atMs) + 1 / this.#timeConstantMs;
    this.#at = Math.max(atMs, this.#at ?? atMs);
  }

  /** The rate at `atMs`, in events per second (0 before the first event). */
  perSecond(atMs: number): number {
    return this.#decayedTo(atMs) * 1000;
  }

  // A clock read earlier than the last event (two readers racing) decays nothing rather than growing the sum.
  #decayedTo(atMs: number): number {
    if (this.#at === undefined) return 0;
    return this.#perMs * Math.exp(-Math.max(0, atMs - this.#at) / this.#timeConstantMs);
  }
}
