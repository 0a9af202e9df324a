import type { HistorySubject } from "@svc/scheme";
import type { Address } from "viem";

import type { ParticipantBinding } from "../participantBinding.js";

/** The spec's bound on pending login challenges. */
export const MAX_PENDING_LOGIN_CHALLENGES = 10_000;

/** One issued, not yet used login challenge. */
export type PendingLoginChallenge = {
  message: string;
  subject: HistorySubject;
  binding: ParticipantBinding;
  /** The wallet the message must be signed by (the configured address of the role when issued). */
  wallet: Address;
  /** Unix seconds. */
  expiresAt: number;
};

/**
 * Pending wallet-login challenges by nonce, bounded. Expired challenges are swept once the store is full, so
 * they stop counting against the bound once their lifetime is over; until then a verify of an expired one is
 * told "expired" rather than "unknown", which helps a client with a slow wallet understand what happened.
 */
export class LoginChallengeStore {
  readonly #pending = new Map<string, PendingLoginChallenge>();
  readonly #capacity: number;

  constructor({ capacity = MAX_PENDING_LOGIN_CHALLENGES }: { capacity?: number } = {}) {
    this.#capacity = capacity;
  }

  /** Pending challenges (for tests and the bound). */
  get size(): number {
    return this.#pending.size;
  }

  /** Stores a challenge unless the store is full after sweeping what expired before `nowSeconds`. */
  add(nonce: string, challenge: PendingLoginChallenge, nowSeconds: number): boolean {
    if (this.#pending.size >= this.#capacity) {
      for (const [key, pending] of this.#pending) if (pending.expiresAt <= nowSeconds) this.#pending.delete(key);
    }
    if (this.#pending.size >= this.#capacity) return false;
    this.#pending.set(nonce.toLowerCase(), challenge);
    return true;
  }

  /** The pending challenge of `nonce`, without consuming it. */
  get(nonce: string): PendingLoginChallenge | undefined {
    return this.#pending.get(nonce.toLowerCase());
  }

  /** Consumes `nonce`; `false` when it was already gone (used concurrently, or swept). */
  consume(nonce: string): boolean {
    return this.#pending.delete(nonce.toLowerCase());
  }
}
