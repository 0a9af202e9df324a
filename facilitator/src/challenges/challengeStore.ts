/**
 * The in-memory table of issued challenges, keyed by `challengeNonce` and findable by `payTo`.
 *
 * Lifecycle of one record (unix seconds from the injected clock):
 * - open while `now <= expiresAt` and not settled; only open records count against `daemon.max_open_challenges`;
 * - expired once `now > expiresAt` (the record says the offer is refused *after* it), kept as match data for
 *   `settlement.expired_challenge_retention_seconds` so a late burn is recognised and refused as late;
 * - dropped once `now > expiresAt + retention`. A settled record follows the same clock: it stops counting as
 *   open at once but stays findable until then, so an identical re-sent payload still finds it.
 *
 * Sweeping is lazy: every call first moves records past their deadlines, using two min-heaps on `expiresAt`
 * (one for the open-to-expired step, one for dropping), so each record costs O(log n) over its life and no
 * timer is needed. A heap rather than insertion order, because the wall clock may step backwards.
 */
import type { Address, Hex } from "viem";

import { ChallengeCapacityError, DuplicateChallengeError, InvalidChallengeOptionError } from "./errors.js";
import type { ChallengeRecord } from "./challengeRecord.js";

/** Default hard bound on expired records kept, on top of the retention period. */
export const DEFAULT_MAX_RETAINED_EXPIRED = 100_000;

/** How a store is bounded and what time it is. */
export type ChallengeStoreParameters = {
  /** `daemon.max_open_challenges`. */
  maxOpenChallenges: number;
  /** `settlement.expired_challenge_retention_seconds`. */
  retentionSeconds: number;
  /**
   * Hard bound on expired records kept; the oldest go first beyond it. Open challenges are capped by the
   * config but expired ones are capped only by issuance rate times retention, which a short TTL with a long
   * retention makes large; losing the oldest match data early only turns a "late burn" refusal into an
   * "unknown challenge" refusal. Default {@link DEFAULT_MAX_RETAINED_EXPIRED}.
   */
  maxRetainedExpired?: number | undefined;
  /** Unix seconds; defaults to the wall clock. */
  now?: (() => number) | undefined;
};

/** A stored challenge and where it is in its life. */
export type StoredChallenge = {
  record: ChallengeRecord;
  /** `open` until `expiresAt` has passed, then `expired` (whether settled or not). */
  status: "open" | "expired";
  /** Whether `markSettled` was called for it. */
  settled: boolean;
};

/** Sizes for `GET /admin/challenges`. */
export type ChallengeCounts = {
  /** Unexpired, unsettled challenges: what the cap counts. */
  open: number;
  /** Expired challenges still kept as match data. */
  retainedExpired: number;
};

/**
 * One slot under the open-challenge cap, held while a burn address is being fetched so concurrent issues
 * cannot overshoot the cap between the check and the add (which would waste a derivation).
 */
export type ChallengeReservation = {
  /** Stores `record` in the reserved slot (or, once released, as a plain `add`). */
  add(record: ChallengeRecord): void;
  /** Gives the slot back; no effect once used. */
  release(): void;
};

type Entry = { record: ChallengeRecord; settled: boolean; expired: boolean };

/**
 * Issued challenges with lazy expiry, retention and an open-challenge cap.
 *
 * @example
 * const store = new ChallengeStore({ maxOpenChallenges: 1000, retentionSeconds: 3600 });
 * const slot = store.reserve(); // throws ChallengeCapacityError at the cap
 * slot.add(record);
 * store.get(record.challengeNonce); // { record, status: "open", settled: false }
 */
export class ChallengeStore {
  readonly #maxOpen: number;
  readonly #retention: number;
  readonly #maxRetainedExpired: number;
  readonly #now: () => number;
  readonly #byNonce = new Map<string, Entry>();
  readonly #nonceByPayTo = new Map<string, string>();
  readonly #unexpired = new ExpiryHeap();
  readonly #expired = new ExpiryHeap();
  #open = 0;
  #reserved = 0;
  #retainedExpired = 0;

  constructor(parameters: ChallengeStoreParameters) {
    const { maxOpenChallenges, retentionSeconds } = parameters;
    const maxRetainedExpired = parameters.maxRetainedExpired ?? DEFAULT_MAX_RETAINED_EXPIRED;
    if (!Number.isSafeInteger(maxOpenChallenges) || maxOpenChallenges < 1) {
      throw new InvalidChallengeOptionError({ option: "max open challenges", expected: "an integer of at least 1" });
    }
    if (!Number.isSafeInteger(retentionSeconds) || retentionSeconds < 0) {
      throw new InvalidChallengeOptionError({ option: "retention seconds", expected: "an integer of at least 0" });
    }
    if (!Number.isSafeInteger(maxRetainedExpired) || maxRetainedExpired < 0) {
      throw new InvalidChallengeOptionError({ option: "max retained expired", expected: "an integer of at least 0" });
    }
    this.#maxOpen = maxOpenChallenges;
    this.#retention = retentionSeconds;
    this.#maxRetainedExpired = maxRetainedExpired;
    this.#now = parameters.now ?? (() => Math.floor(Date.now() / 1000));
  }

  /** Holds one slot under the cap; throws {@link ChallengeCapacityError} when open plus reserved reach it. */
  reserve(): ChallengeReservation {
    this.#claimSlot();
    let held = true;
    return {
      add: (record) => {
        if (!held) this.#claimSlot();
        held = false;
        this.#reserved--;
        this.#insert(record);
      },
      release: () => {
        if (!held) return;
        held = false;
        this.#reserved--;
      },
    };
  }

  /** Stores an issued challenge; throws {@link ChallengeCapacityError} at the cap. */
  add(record: ChallengeRecord): void {
    this.reserve().add(record);
  }

  /**
   * Puts back a challenge issued before a restart, beyond the cap (it was under it when issued); one past its
   * retention is dropped at once, one already paid stops counting as open.
   */
  restore(record: ChallengeRecord, settled: boolean): void {
    if (this.#byNonce.has(record.challengeNonce.toLowerCase()) || this.#nonceByPayTo.has(record.payTo.toLowerCase())) return;
    this.#insert(record);
    if (settled) this.markSettled(record.challengeNonce);
  }

  /** The challenge with this nonce while it is open or retained, else `undefined`. */
  get(challengeNonce: Hex): StoredChallenge | undefined {
    this.#sweep();
    const entry = this.#byNonce.get(challengeNonce.toLowerCase());
    return entry === undefined ? undefined : lookup(entry);
  }

  /** The challenge whose one-time burn address is `payTo` (any letter case) while open or retained. */
  findByPayTo(payTo: Address): StoredChallenge | undefined {
    this.#sweep();
    const nonce = this.#nonceByPayTo.get(payTo.toLowerCase());
    const entry = nonce === undefined ? undefined : this.#byNonce.get(nonce);
    return entry === undefined ? undefined : lookup(entry);
  }

  /** Stops counting the challenge as open (it was paid); returns whether it was found. */
  markSettled(challengeNonce: Hex): boolean {
    this.#sweep();
    const entry = this.#byNonce.get(challengeNonce.toLowerCase());
    if (entry === undefined) return false;
    if (!entry.settled && !entry.expired) this.#open--;
    entry.settled = true;
    return true;
  }

  /** Open and retained-expired counts. */
  counts(): ChallengeCounts {
    this.#sweep();
    return { open: this.#open, retainedExpired: this.#retainedExpired };
  }

  #claimSlot(): void {
    this.#sweep();
    if (this.#open + this.#reserved >= this.#maxOpen) throw new ChallengeCapacityError(this.#maxOpen);
    this.#reserved++;
  }

  #insert(record: ChallengeRecord): void {
    // Hex keys are compared case-blind: a nonce or address re-cased on the wire is still the same value.
    const nonceKey = record.challengeNonce.toLowerCase();
    const payToKey = record.payTo.toLowerCase();
    if (this.#byNonce.has(nonceKey)) throw new DuplicateChallengeError("challengeNonce");
    if (this.#nonceByPayTo.has(payToKey)) throw new DuplicateChallengeError("payTo");
    this.#byNonce.set(nonceKey, { record, settled: false, expired: false });
    this.#nonceByPayTo.set(payToKey, nonceKey);
    this.#open++;
    this.#unexpired.push(record.expiresAt, nonceKey);
    this.#sweep();
  }

  #sweep(): void {
    const now = this.#now();
    for (let top = this.#unexpired.peek(); top !== undefined && top.at < now; top = this.#unexpired.peek()) {
      this.#unexpired.pop();
      const entry = this.#byNonce.get(top.key);
      if (entry === undefined) continue;
      entry.expired = true;
      if (!entry.settled) this.#open--;
      this.#retainedExpired++;
      this.#expired.push(top.at, top.key);
    }
    for (let top = this.#expired.peek(); top !== undefined; top = this.#expired.peek()) {
      if (top.at + this.#retention >= now && this.#retainedExpired <= this.#maxRetainedExpired) break;
      this.#expired.pop();
      this.#drop(top.key);
    }
  }

  #drop(nonceKey: string): void {
    const entry = this.#byNonce.get(nonceKey);
    if (entry === undefined) return;
    this.#byNonce.delete(nonceKey);
    this.#nonceByPayTo.delete(entry.record.payTo.toLowerCase());
    this.#retainedExpired--;
  }
}

function lookup(entry: Entry): StoredChallenge {
  return { record: entry.record, status: entry.expired ? "expired" : "open", settled: entry.settled };
}

type HeapItem = { at: number; key: string };

/** A binary min-heap of `(expiresAt, nonce)`. */
class ExpiryHeap {
  readonly #items: HeapItem[] = [];

  peek(): HeapItem | undefined {
    return this.#items[0];
  }

  push(at: number, key: string): void {
    const items = this.#items;
    items.push({ at, key });
    let child = items.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (this.#at(parent) <= this.#at(child)) break;
      this.#swap(parent, child);
      child = parent;
    }
  }

  pop(): HeapItem | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    items[0] = last;
    let parent = 0;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < items.length && this.#at(left) < this.#at(smallest)) smallest = left;
      if (right < items.length && this.#at(right) < this.#at(smallest)) smallest = right;
      if (smallest === parent) return top;
      this.#swap(parent, smallest);
      parent = smallest;
    }
  }

  #at(index: number): number {
    return this.#items[index]?.at ?? Number.POSITIVE_INFINITY;
  }

  #swap(a: number, b: number): void {
    const items = this.#items;
    const itemA = items[a];
    const itemB = items[b];
    if (itemA === undefined || itemB === undefined) return;
    items[a] = itemB;
    items[b] = itemA;
  }
}
