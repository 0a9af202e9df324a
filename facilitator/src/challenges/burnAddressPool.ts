/**
 * A stock of pre-derived one-time burn addresses for one `(protocol, chainId, treasury, seed)`. Deriving one
 * costs 4096 (v1) or 65,536 (v2) Poseidon hashes, too slow for a request, so worker threads (one per core by
 * default) keep the stock full in the background and `POST /challenge` only takes from it. A worker starts
 * when there is something to derive and exits after a few idle seconds (a live thread holds tens of MiB),
 * so a daemon whose stock is full runs none; under steady demand they stay up and none is respawned.
 *
 * The stock's size follows demand between the configured size (the floor) and a ceiling: the pool measures
 * the offer rate (takes per second, exponentially weighted over about a minute) and what its workers derive
 * per second, and aims at the size `stockTarget` gives for them (see `stockSizing.ts`). A stock above a target
 * that fell again is not discarded, only used up.
 *
 * Each worker answer is re-checked here with the scheme's `poseidon-lite` hash (one hash, not a search): a
 * stock entry is always an address the scheme itself would derive, whatever implementation the worker ran.
 * A failed check stops the pool for good, because every later answer would come from the same diverging code.
 *
 * With a {@link BurnAddressStockStore} the stock survives restarts: restored entries are re-checked the same
 * way, and an entry leaves the store durably before `take()` hands it out, so no address is issued twice.
 * The next few entries are released ahead of demand (one fsync for several), so a take from the stock
 * rarely waits for the disk; a restart forgets the released ones instead of re-offering them. `takeHeld`
 * lets `POST /challenge` start that release and the refill only after its own journal fsync.
 */
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";
import { poseidonChoice } from "@svc/scheme";
import { toHex, type Hex } from "viem";

import { BurnAddressPoolClosedError, BurnAddressUnavailableError, InvalidChallengeOptionError } from "./errors.js";
import type { BurnAddressStockStore } from "./burnAddressStock.js";
import { BurnAddressWorker, type WorkerPoseidon } from "./burnAddressWorker.js";
import { type BurnTarget, burnSecretInputs } from "./burnSecretInputs.js";
import type { BurnSecret } from "./challengeRecord.js";
import { completeBurnSecret, completeSearchedBurnSecret } from "./completeBurnSecret.js";
import { DecayingRate } from "./decayingRate.js";
import { DEFAULT_BURN_ADDRESS_POOL_GROWTH } from "../config/facilitatorConfigSchema.js";
import { DERIVATION_TIME_WEIGHT, derivationsPerSecond, OFFER_RATE_TIME_CONSTANT_MS, stockLastsSeconds, stockTarget } from "./stockSizing.js";

/** Default number of addresses kept ready: enough to absorb a burst while the workers refill. */
export const DEFAULT_BURN_ADDRESS_POOL_SIZE = 16;

/**
 * Default time a worker thread with nothing to derive stays alive. A new thread costs a few tens of ms of
 * start-up; a gap of seconds between offers means demand low enough for that not to matter.
 */
export const DEFAULT_BURN_ADDRESS_WORKER_IDLE_MS = 5_000;

/** Default bound on how long `take()` waits for a derivation before answering 503. */
export const DEFAULT_BURN_ADDRESS_TAKE_TIMEOUT_MS = 30_000;

// Worker failures in a row (without one good answer between them) after which the pool gives up rather than
// respawning forever.
const MAX_CONSECUTIVE_WORKER_FAILURES = 3;

/** What a pool derives for, and how hard it works. */
export type BurnAddressPoolParameters = BurnTarget & {
  /** The burn-address seed (`deriveBurnSeed`). */
  seed: Hex;
  /** Addresses kept ready at least (the floor); 0 derives only on demand. Default {@link DEFAULT_BURN_ADDRESS_POOL_SIZE}. */
  size?: number | undefined;
  /** Addresses kept ready at most, however high demand runs; at least `size`. Default `size` × {@link DEFAULT_BURN_ADDRESS_POOL_GROWTH}. */
  maxSize?: number | undefined;
  /** Worker threads; default `os.availableParallelism()`, one per core (the request path needs little CPU). */
  workers?: number | undefined;
  /** How long an idle worker thread lives before it exits; default {@link DEFAULT_BURN_ADDRESS_WORKER_IDLE_MS}, `Infinity` keeps it. */
  workerIdleMs?: number | undefined;
  /** How long `take()` waits when the stock is empty. Default {@link DEFAULT_BURN_ADDRESS_TAKE_TIMEOUT_MS}. */
  takeTimeoutMs?: number | undefined;
  /** Where the stock persists across restarts; without it the stock lives in memory only. */
  stock?: BurnAddressStockStore | undefined;
  /**
   * With a store: how many entries at the head of the stock are durably released before anyone asks for
   * them (a restart loses at most these). Default a quarter of `size`, at least 1; 0 releases on each take.
   */
  releaseAhead?: number | undefined;
  /** The Poseidon implementation and search path workers search with; default the process's `poseidonChoice()`. */
  poseidon?: WorkerPoseidon | undefined;
  /** A monotonic clock in milliseconds for the offer and derivation rates; default `performance.now`. */
  now?: (() => number) | undefined;
};

/** A snapshot of the pool for health and admin output; it carries no secret. */
export type BurnAddressPoolStats = {
  /** Addresses ready to hand out. */
  stocked: number;
  /** Derivations running in workers. */
  deriving: number;
  /** `take()` calls waiting for a derivation. */
  waiting: number;
  /** Worker threads alive. */
  workers: number;
  /** Addresses derived and verified since the pool started. */
  derived: number;
  /** Mean wall time of one derivation in a worker, in milliseconds (0 before the first). */
  meanDerivationMs: number;
  /** Whether the pool stopped (closed, or broken by a failed verification or repeated worker failures). */
  stopped: boolean;
  /** Entries restored from the persisted stock at start (after their re-check). */
  restored: number;
  /** The configured size: the stock is never aimed below it. */
  floor: number;
  /** The stock is never aimed above this. */
  ceiling: number;
  /** The size the workers refill to now, from the observed rates (`floor..ceiling`). */
  target: number;
  /** Offers taken per second (served or waiting), exponentially weighted over about a minute. */
  offersPerSecond: number;
  /** What the workers derive per second while all are busy (0 once stopped); `null` before the first derivation. */
  derivationsPerSecond: number | null;
  /** Seconds the ready stock lasts at the current offer rate net of derivation; `null` when it does not run out. */
  lastsSeconds: number | null;
};

/**
 * A burn secret taken from the stock, with the pool's own work the take set off (the refill's next derivation
 * and the release of the next stock entry, an fsync) held back until `resume` is called. A caller that makes
 * the offer durable itself resumes once its own write settled, so the two fsyncs do not queue behind each
 * other while the offer waits (on one disk, overlapping fsyncs each take about twice as long as one alone).
 * `resume` starts that work on the next turn of the event loop and is idempotent; a take that had to wait
 * for a derivation has nothing held.
 */
export type TakenBurn = { burn: BurnSecret; resume: () => void };

/** Anything that hands out fresh burn secrets: the pool, or a stand-in in tests. */
export type BurnAddressSource = {
  /** Resolves a never-before-returned burn secret; the caller must call `resume` once done with its own write. */
  takeHeld(): Promise<TakenBurn>;
};

// `release` is the store's removal of the entry, started ahead of demand or by the take itself.
type StockEntry = { burn: BurnSecret; nonce: bigint; release?: Promise<void> | undefined };

type Waiter = {
  resolve: (secret: BurnSecret) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
};

/**
 * Keeps `size` verified burn secrets ready and refills them on worker threads.
 *
 * @example
 * const pool = new BurnAddressPool({ protocol: "zerc20-v2", chainId: 31337, treasury, seed: deriveBurnSeed(treasuryPk) });
 * const burn = await pool.take(); // immediate when stocked
 * await pool.close();
 */
export class BurnAddressPool implements BurnAddressSource {
  /** The protocol version, chain and mint destination every address of this pool is derived for. */
  readonly target: BurnTarget;
  readonly #seed: Hex;
  readonly #size: number;
  readonly #maxSize: number;
  readonly #maxWorkers: number;
  readonly #workerIdleMs: number;
  readonly #takeTimeoutMs: number;
  readonly #store: BurnAddressStockStore | undefined;
  readonly #releaseAhead: number;
  readonly #poseidon: WorkerPoseidon;
  readonly #now: () => number;
  readonly #offers = new DecayingRate(OFFER_RATE_TIME_CONSTANT_MS);
  readonly #stock: StockEntry[] = [];
  readonly #waiters: Waiter[] = [];
  readonly #stockedListeners: (() => void)[] = [];
  #workers: BurnAddressWorker[] = [];
  // The exit timer of each worker waiting for work.
  readonly #idleTimers = new Map<BurnAddressWorker, NodeJS.Timeout>();
  #deriving = 0;
  #derived = 0;
  #derivationMsTotal = 0;
  #recentDerivationMs: number | undefined;
  #restored = 0;
  #consecutiveFailures = 0;
  #closed = false;
  #broken: { cause: unknown } | undefined;

  constructor(parameters: BurnAddressPoolParameters) {
    const size = parameters.size ?? DEFAULT_BURN_ADDRESS_POOL_SIZE;
    const workers = parameters.workers ?? availableParallelism();
    const takeTimeoutMs = parameters.takeTimeoutMs ?? DEFAULT_BURN_ADDRESS_TAKE_TIMEOUT_MS;
    const workerIdleMs = parameters.workerIdleMs ?? DEFAULT_BURN_ADDRESS_WORKER_IDLE_MS;
    if (!Number.isSafeInteger(size) || size < 0) {
      throw new InvalidChallengeOptionError({ option: "pool size", expected: "an integer of at least 0" });
    }
    const maxSize = parameters.maxSize ?? size * DEFAULT_BURN_ADDRESS_POOL_GROWTH;
    if (!Number.isSafeInteger(maxSize) || maxSize < size) {
      throw new InvalidChallengeOptionError({ option: "pool maximum size", expected: "an integer of at least the pool size" });
    }
    if (!Number.isSafeInteger(workers) || workers < 1) {
      throw new InvalidChallengeOptionError({ option: "pool workers", expected: "an integer of at least 1" });
    }
    if (!Number.isFinite(takeTimeoutMs) || takeTimeoutMs < 0) {
      throw new InvalidChallengeOptionError({ option: "pool take timeout", expected: "a non-negative number of ms" });
    }
    if (Number.isNaN(workerIdleMs) || workerIdleMs < 0) {
      throw new InvalidChallengeOptionError({ option: "pool worker idle time", expected: "a non-negative number of ms, or Infinity" });
    }
    this.target = { protocol: parameters.protocol, chainId: parameters.chainId, treasury: parameters.treasury };
    this.#seed = parameters.seed;
    this.#size = size;
    this.#maxSize = maxSize;
    this.#maxWorkers = workers;
    this.#workerIdleMs = workerIdleMs;
    this.#takeTimeoutMs = takeTimeoutMs;
    this.#store = parameters.stock;
    const releaseAhead = parameters.releaseAhead ?? Math.max(1, Math.ceil(size / 4));
    if (!Number.isSafeInteger(releaseAhead) || releaseAhead < 0) {
      throw new InvalidChallengeOptionError({ option: "pool release-ahead count", expected: "an integer of at least 0" });
    }
    this.#releaseAhead = releaseAhead;
    this.#poseidon = parameters.poseidon ?? poseidonChoice().implementation;
    this.#now = parameters.now ?? (() => performance.now());
    this.#restore();
    this.#refill();
  }

  /**
   * Resolves a fresh burn secret: at once from the stock, else after the next derivation. Rejects with
   * {@link BurnAddressUnavailableError} after the take timeout, or when the pool is closed or broken.
   */
  take(): Promise<BurnSecret> {
    return this.takeHeld().then(({ burn, resume }) => {
      resume();
      return burn;
    });
  }

  /**
   * {@link take}, with the work the take sets off held until the returned `resume` (see {@link TakenBurn}):
   * `POST /challenge` resumes once the challenge is journaled. A refused take holds nothing back.
   */
  takeHeld(): Promise<TakenBurn> {
    const stopped = this.#stoppedError();
    if (stopped !== undefined) return Promise.reject(stopped);
    // Demand, whether the stock serves it or it waits: a take that has to wait is the one a larger stock saves.
    this.#offers.record(this.#now());
    const stocked = this.#stock.shift();
    if (stocked !== undefined) {
      let resumed = false;
      const resume = () => {
        if (resumed) return;
        resumed = true;
        // On the next turn, so what the caller does in this one (answering with the offer) goes out first.
        setImmediate(() => {
          this.#refill();
          this.#releaseHead();
        });
      };
      if (this.#store === undefined) return Promise.resolve({ burn: stocked.burn, resume });
      // Durably out of the persisted stock before anyone sees it, or not handed out at all.
      const release = stocked.release ?? this.#store.take(stocked.burn.paymentId);
      return release.then(
        () => ({ burn: stocked.burn, resume }),
        (error: unknown) => {
          resume();
          throw new BurnAddressUnavailableError({ cause: error });
        },
      );
    }
    return new Promise<TakenBurn>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (burn) => resolve({ burn, resume: () => undefined }),
        reject,
        // Deliberately ref'd: a caller waiting for an address keeps the process alive until it is answered.
        timer: setTimeout(() => {
          this.#removeWaiter(waiter);
          reject(new BurnAddressUnavailableError());
        }, this.#takeTimeoutMs),
      };
      this.#waiters.push(waiter);
      this.#refill();
    });
  }

  /**
   * Resolves once at least one address is stocked (at once if one is), so a daemon can announce readiness
   * only when its first offer would not wait; resolves anyway after `timeoutMs`.
   */
  whenStocked(timeoutMs: number = this.#takeTimeoutMs): Promise<void> {
    if (this.#stock.length > 0 || this.#stoppedError() !== undefined) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#stockedListeners.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Counts and rates for health output. */
  stats(): BurnAddressPoolStats {
    const stopped = this.#closed || this.#broken !== undefined;
    const sizing = this.#sizing();
    // A stopped pool derives nothing more, whatever its workers managed before.
    const capacity = stopped ? 0 : sizing.derivationsPerSecond;
    return {
      stocked: this.#stock.length,
      deriving: this.#deriving,
      waiting: this.#waiters.length,
      workers: this.#workers.filter((worker) => worker.alive).length,
      derived: this.#derived,
      meanDerivationMs: this.#derived === 0 ? 0 : this.#derivationMsTotal / this.#derived,
      stopped,
      restored: this.#restored,
      floor: this.#size,
      ceiling: this.#maxSize,
      target: sizing.target,
      offersPerSecond: sizing.offersPerSecond,
      derivationsPerSecond: capacity,
      lastsSeconds: stockLastsSeconds({ stocked: this.#stock.length, offersPerSecond: sizing.offersPerSecond, derivationsPerSecond: capacity }),
    };
  }

  /**
   * Stops every worker, drops the in-memory stock, rejects waiting takes and closes the persisted stock (which
   * keeps its entries for the next start); the pool is unusable afterwards.
   */
  async close(): Promise<void> {
    const alreadyClosed = this.#closed;
    this.#closed = true;
    this.#rejectWaiters(this.#stoppedError());
    // Unissued secrets stay out of memory once the pool is gone; the store holds only ids and nonces.
    this.#stock.length = 0;
    this.#clearIdleTimers();
    const workers = this.#workers;
    this.#workers = [];
    await Promise.all(workers.map((worker) => worker.terminate()));
    if (!alreadyClosed) await this.#store?.close();
  }

  // One hash per restored entry; an entry that fails it is dropped from the store, never offered.
  #restore(): void {
    if (this.#store === undefined) return;
    for (const { paymentId, nonce } of this.#store.restored) {
      const inputs = burnSecretInputs(this.#seed, this.target, paymentId);
      let burn: BurnSecret;
      try {
        burn = completeBurnSecret(inputs, nonce);
      } catch {
        void this.#store.take(paymentId).catch(() => undefined);
        continue;
      }
      this.#stock.push({ burn, nonce });
      this.#restored++;
    }
    this.#releaseHead();
  }

  // Starts the store's removal of the first `releaseAhead` entries once at most half of them are released: one
  // write and fsync for the batch, and the takes in between start none, so back-to-back offers do not each have
  // their journal fsync overlap a stock fsync. A failed removal is retried by its take.
  #releaseHead(): void {
    const store = this.#store;
    if (store === undefined) return;
    const head = this.#stock.slice(0, this.#releaseAhead);
    const released = head.filter((entry) => entry.release !== undefined).length;
    if (released > this.#releaseAhead / 2) return;
    for (const entry of head) {
      if (entry.release !== undefined) continue;
      const release = store.take(entry.burn.paymentId);
      entry.release = release;
      release.catch(() => {
        if (entry.release === release) entry.release = undefined;
      });
    }
  }

  #stoppedError(): BurnAddressUnavailableError | undefined {
    if (this.#closed) return new BurnAddressUnavailableError({ cause: new BurnAddressPoolClosedError() });
    if (this.#broken !== undefined) return new BurnAddressUnavailableError({ cause: this.#broken.cause });
    return undefined;
  }

  // The rates now, and the stock size they call for.
  #sizing(): { offersPerSecond: number; derivationsPerSecond: number | null; target: number } {
    const offersPerSecond = this.#offers.perSecond(this.#now());
    const capacity = derivationsPerSecond(this.#maxWorkers, this.#recentDerivationMs);
    return {
      offersPerSecond,
      derivationsPerSecond: capacity,
      target: stockTarget({ floor: this.#size, ceiling: this.#maxSize, offersPerSecond, derivationsPerSecond: capacity }),
    };
  }

  // Called after every take and every derivation, the only events that raise the target; a target that falls
  // with time needs no action.
  #refill(): void {
    const target = this.#sizing().target;
    const wanted = () => target + this.#waiters.length;
    while (!this.#closed && this.#broken === undefined && this.#stock.length + this.#deriving < wanted()) {
      const worker = this.#idleWorker();
      if (worker === undefined) return;
      this.#derive(worker);
    }
  }

  // One job per worker at a time, so a job's wall time is its CPU time and close() never strands a queue.
  #idleWorker(): BurnAddressWorker | undefined {
    this.#workers = this.#workers.filter((worker) => worker.alive);
    const idle = this.#workers.find((worker) => worker.pending === 0);
    if (idle !== undefined) {
      clearTimeout(this.#idleTimers.get(idle));
      this.#idleTimers.delete(idle);
      return idle;
    }
    if (this.#workers.length >= this.#maxWorkers) return undefined;
    const spawned = new BurnAddressWorker(this.#poseidon);
    this.#workers.push(spawned);
    return spawned;
  }

  #derive(worker: BurnAddressWorker): void {
    const inputs = burnSecretInputs(this.#seed, this.target, toHex(randomBytes(32)));
    const started = this.#now();
    this.#deriving++;
    worker.search(inputs).then(
      (found) => {
        this.#deriving--;
        if (this.#closed) return;
        let burn: BurnSecret;
        try {
          burn = completeSearchedBurnSecret(inputs, found);
        } catch (error) {
          this.#break(error);
          return;
        }
        this.#consecutiveFailures = 0;
        this.#derived++;
        const elapsedMs = this.#now() - started;
        this.#derivationMsTotal += elapsedMs;
        this.#recentDerivationMs =
          this.#recentDerivationMs === undefined ? elapsedMs : this.#recentDerivationMs + (elapsedMs - this.#recentDerivationMs) * DERIVATION_TIME_WEIGHT;
        this.#deliver({ burn, nonce: found.nonce });
        this.#refill();
        this.#retireWhenIdle(worker);
      },
      (error: unknown) => {
        this.#deriving--;
        if (this.#closed) return;
        if (worker.alive) void worker.terminate();
        this.#consecutiveFailures++;
        if (this.#consecutiveFailures >= MAX_CONSECUTIVE_WORKER_FAILURES) this.#break(error);
        else this.#refill();
      },
    );
  }

  // A worker the refill left without a job exits after the idle time, unless a job reaches it first.
  #retireWhenIdle(worker: BurnAddressWorker): void {
    if (worker.pending > 0 || !worker.alive || this.#idleTimers.has(worker) || !Number.isFinite(this.#workerIdleMs)) return;
    const timer = setTimeout(() => {
      this.#idleTimers.delete(worker);
      if (worker.pending > 0 || this.#closed) return;
      this.#workers = this.#workers.filter((other) => other !== worker);
      void worker.terminate();
    }, this.#workerIdleMs);
    // An idle pool must not keep the process alive.
    timer.unref();
    this.#idleTimers.set(worker, timer);
  }

  #deliver(entry: StockEntry): void {
    const waiter = this.#waiters.shift();
    if (waiter === undefined) {
      this.#stock.push(entry);
      // Best effort: an entry the store missed is only re-derived after a restart, never issued twice.
      void this.#store?.add({ paymentId: entry.burn.paymentId, nonce: entry.nonce }).catch(() => undefined);
      this.#releaseHead();
      for (const notify of this.#stockedListeners.splice(0)) notify();
      return;
    }
    clearTimeout(waiter.timer);
    waiter.resolve(entry.burn);
  }

  #break(error: unknown): void {
    this.#broken ??= { cause: error };
    this.#stock.length = 0;
    this.#rejectWaiters(this.#stoppedError());
    this.#clearIdleTimers();
    const workers = this.#workers;
    this.#workers = [];
    for (const worker of workers) void worker.terminate();
  }

  #clearIdleTimers(): void {
    for (const timer of this.#idleTimers.values()) clearTimeout(timer);
    this.#idleTimers.clear();
  }

  #rejectWaiters(error: unknown): void {
    for (const waiter of this.#waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
  }

  #removeWaiter(waiter: Waiter): void {
    const index = this.#waiters.indexOf(waiter);
    if (index !== -1) this.#waiters.splice(index, 1);
  }
}
