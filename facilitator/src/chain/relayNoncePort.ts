/**
 * The port a key's sender takes its nonces from. It is defined here, beside its consumer (`createKeySender`),
 * so the storage adapters that implement it import `chain/` and not the reverse.
 */
import type { Address } from "viem";

/**
 * Nonces of the keys the facilitator sends with (the relayer, the minter, the treasury), whether one process or
 * several instances use them. Each broadcast starts while it holds the key's nonce lock, so a key's broadcasts
 * go out one at a time in nonce order and two instances never sign the same nonce. The counter moves past a
 * nonce once its transaction is on its way; a refused broadcast leaves no gap that would hold later ones back
 * for longer than its key's monitor takes to fill it.
 */
export type RelayNoncePort = {
  /**
   * Runs `broadcast` with the next nonce of `account` on `chainId` (the larger of the chain's pending count,
   * read under the lock, and the one after the last broadcast sent) and resolves to its result. An adapter whose
   * process alone uses the key (the embedded one) may skip reading the pending count when it knows the next
   * nonce: it reads it on the key's first use and after a broadcast that threw. PostgreSQL reads it on every
   * turn, under the row lock, since another instance may have sent a moment ago.
   *
   * The lock is held until `broadcast` settles, except that the embedded adapter ends the turn when the
   * broadcast calls `sent()` (its transaction signed, recorded and handed to the node), so the next one signs
   * while the node answers: the answer is the slow part of a turn (a whole block on a chain that mines on
   * arrival, a network round trip on a remote node). If it then throws, the counter goes back to its nonce
   * unless a later nonce was sent meanwhile; that gap is this process's own, and its key's monitor fills it at
   * once. PostgreSQL holds the lock until the answer: a gap there could be another instance's to find, and it
   * would stand until that instance's gap deadline.
   */
  withNextNonce<T>(
    chainId: number,
    account: Address,
    pendingNonce: () => Promise<number>,
    broadcast: (nonce: number, sent: () => void) => Promise<T>,
  ): Promise<T>;
};
