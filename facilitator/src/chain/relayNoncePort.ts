/**
 * The port a key's sender takes its nonces from. It is defined here, beside its consumer (`createKeySender`),
 * so the storage adapters that implement it import `chain/` and not the reverse.
 */
import type { Address } from "viem";

/**
 * Nonces of the keys the facilitator sends with (the relayer, the minter, the treasury), whether one process or
 * several instances use them. Each broadcast runs while it holds the key's nonce lock, so a key's broadcasts
 * go out one at a time in nonce order, and the counter moves past a nonce only when its broadcast succeeded,
 * so two instances never sign the same nonce and a refused broadcast leaves no gap that would hold later ones
 * back.
 */
export type RelayNoncePort = {
  /**
   * Runs `broadcast` with the next nonce of `account` on `chainId` (the larger of the chain's pending count,
   * read under the lock, and the one after the last successful broadcast) and resolves to its result. An
   * adapter whose process alone uses the key (the embedded one) may skip reading the pending count when it
   * knows the next nonce: it reads it on the key's first use and after a broadcast that threw. PostgreSQL reads
   * it on every turn, under the row lock, since another instance may have sent a moment ago.
   */
  withNextNonce<T>(chainId: number, account: Address, pendingNonce: () => Promise<number>, broadcast: (nonce: number) => Promise<T>): Promise<T>;
};
