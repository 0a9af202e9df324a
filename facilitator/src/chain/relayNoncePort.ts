/**
 * The port a shared key's sender takes its nonces from. It is defined here, beside its consumer
 * (`createSharedKeySender`), so the storage adapters that implement it import `chain/` and not the reverse.
 */
import type { Address } from "viem";

/**
 * Nonces of a key shared by several instances (the relayer, the treasury). Each broadcast runs while it holds
 * the key's nonce lock, and the counter moves past a nonce only when its broadcast succeeded, so two
 * instances never sign the same nonce and a refused broadcast leaves no gap that would hold later ones back.
 */
export type RelayNoncePort = {
  /**
   * Runs `broadcast` with the next nonce of `account` on `chainId` (the larger of the chain's pending count,
   * read under the lock, and the one after the last successful broadcast) and resolves to its result.
   */
  withNextNonce<T>(chainId: number, account: Address, pendingNonce: () => Promise<number>, broadcast: (nonce: number) => Promise<T>): Promise<T>;
};
