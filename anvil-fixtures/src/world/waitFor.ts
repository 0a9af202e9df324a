/**
 * The one poll of the test kit: every wait on another process (a settlement state, a balance, a log line)
 * goes through here, so none can spin forever and every timeout names what it waited for.
 */
import { setTimeout as delay } from "node:timers/promises";
import { BaseError } from "../errors.js";

/** Options of {@link waitFor}. */
export type WaitForOptions = {
  /** What is awaited, for the timeout message ("settlement finalized"). */
  what: string;
  /** Deadline from the first check (default 30 s). */
  timeoutMs?: number;
  /** Pause between checks (default 200 ms). */
  intervalMs?: number;
};

/** What a condition answers: a value ends the wait, `undefined`, `null` or `false` keeps it going. */
export type WaitForCondition<T> = () => T | undefined | null | false | Promise<T | undefined | null | false>;

/** The condition did not hold before the deadline. */
export class WaitTimeoutError extends BaseError {
  override name = "WaitTimeoutError";
  /** The `what` of the wait. */
  readonly what: string;
  /** The deadline that passed. */
  readonly timeoutMs: number;

  constructor(what: string, timeoutMs: number) {
    super(`${what}: not reached within ${timeoutMs} ms`);
    this.what = what;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * Checks `condition` until it answers a value other than `undefined`, `null` or `false` and resolves with
 * that value; throws `WaitTimeoutError` once `timeoutMs` passed. The condition is checked once more at the
 * deadline, so a slow check never loses the last chance.
 *
 * @example
 * const entry = await waitFor(async () => (await list()).find((row) => row.state === "finalized"), { what: "finalized" });
 */
export async function waitFor<T>(condition: WaitForCondition<T>, options: WaitForOptions): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const pastDeadline = Date.now() >= giveUpAt;
    const value = await condition();
    if (value !== undefined && value !== null && value !== false) return value;
    if (pastDeadline) throw new WaitTimeoutError(options.what, timeoutMs);
    await delay(Math.max(0, Math.min(options.intervalMs ?? 200, giveUpAt - Date.now())));
  }
}
