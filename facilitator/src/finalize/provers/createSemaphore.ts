/**
 * A counting semaphore: at most `permits` holders at once, the others wait in arrival order. The prover
 * adapters share one per adapter between their single and batch proofs, so `prover.concurrency` bounds the
 * programs running (or requests open) at any moment.
 */

/** Gives a slot back; calling it again does nothing. */
export type Release = () => void;

/** A semaphore of a fixed number of permits. */
export type Semaphore = {
  /** Waits for a free slot and returns its release, or `undefined` once the semaphore is closed. */
  acquire: () => Promise<Release | undefined>;
  /** Slots held now. */
  active: () => number;
  /** Callers waiting for a slot. */
  waiting: () => number;
  /** Refuses every later `acquire` and answers every waiting one with `undefined`; held slots stay held until released. */
  close: () => void;
};

/**
 * Creates a semaphore of `permits` slots (a positive integer).
 *
 * @example
 * const slots = createSemaphore(2);
 * const release = await slots.acquire();
 * try { await work(); } finally { release?.(); }
 */
export function createSemaphore(permits: number): Semaphore {
  let active = 0;
  let closed = false;
  const queue: ((release: Release | undefined) => void)[] = [];

  const grant = (): Release => {
    active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      active--;
      const next = queue.shift();
      if (next) next(grant());
    };
  };

  return {
    acquire: () => {
      if (closed) return Promise.resolve(undefined);
      if (active < permits) return Promise.resolve(grant());
      return new Promise((resolve) => queue.push(resolve));
    },
    active: () => active,
    waiting: () => queue.length,
    close: () => {
      closed = true;
      for (const waiter of queue.splice(0)) waiter(undefined);
    },
  };
}
