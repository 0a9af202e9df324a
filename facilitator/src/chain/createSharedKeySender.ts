/**
 * The sender of a key several facilitator instances share (the relayer, the treasury). Where the
 * single-process {@link createSerialSender} tracks nonces in memory, this one takes each nonce under the
 * storage's per-key nonce lock (a database row lock with PostgreSQL), reading the chain's pending count
 * inside the lock, and only a successful broadcast moves the counter on: two instances never sign the same
 * nonce, and a send the node refuses leaves no gap. Broadcasts of the key are serialised across instances;
 * signing and the journal hook run inside that turn, so the nonce a journaled transaction carries is final.
 * Each instance's monitor watches what that instance broadcast and replaces only that; it fills a gap only
 * after twice the replacement deadline, so the instance that sent the missing nonce re-sends it first.
 */
import { keccak256, type Chain, type PublicClient } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { RelayNoncePort } from "./relayNoncePort.js";
import { relayMayHaveReachedChain } from "../settlement/relayReachedChain.js";
import { DEFAULT_SENDER_MONITOR, type SenderMonitorOptions, type SerialSender } from "./createSerialSender.js";
import { createTransactionMonitor } from "./createTransactionMonitor.js";

/** Creates the sender of `account` on `chain` whose nonces come from the shared `nonces` port. */
export function createSharedKeySender(params: {
  client: PublicClient;
  chain: Chain;
  account: Pick<PrivateKeyAccount, "address" | "signTransaction">;
  nonces: RelayNoncePort;
  /** The monitor's role and policy (its loop runs once `monitor.start()` is called). */
  monitor?: SenderMonitorOptions | undefined;
}): SerialSender {
  const { client, chain, account, nonces } = params;
  const options = params.monitor ?? DEFAULT_SENDER_MONITOR;
  const monitor = createTransactionMonitor({
    client,
    chain,
    account,
    ...options,
    policy: { ...options.policy, gapFillAfterMs: options.policy.gapFillAfterMs ?? 2 * options.policy.replaceAfterMs },
  });
  // Never below a nonce this instance still watches: the node counts nothing above a gap.
  const pendingNonce = async () => Math.max(await client.getTransactionCount({ address: account.address, blockTag: "pending" }), monitor.nextFreeNonce());
  return {
    address: account.address,
    monitor,
    send: (call, options) =>
      nonces.withNextNonce(chain.id, account.address, pendingNonce, async (nonce) => {
        const serialized = await account.signTransaction({ type: "eip1559", chainId: chain.id, nonce, ...call });
        const hash = keccak256(serialized);
        await options?.beforeBroadcast?.({ hash, serialized });
        monitor.track({ nonce, call, signed: { hash, serialized }, beforeBroadcast: options?.beforeBroadcast });
        return client.sendRawTransaction({ serializedTransaction: serialized }).catch((error: unknown) => {
          if (!relayMayHaveReachedChain(error)) monitor.forget(nonce, hash);
          throw error;
        });
      }),
  };
}
