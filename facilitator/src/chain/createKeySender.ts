/**
 * One sender per key: the daemon builds one for the relayer (permit burns), the minter and the treasury
 * (custodial fee sweeps). Gas and fee estimates run concurrently, outside the sender. Each nonce comes from the
 * storage's per-key nonce port (relayNoncePort.ts), which starts one broadcast of the key at a time, in
 * nonce order: concurrent settles, mints and sweeps never collide on a nonce, and two instances sharing the
 * key through PostgreSQL never sign the same one. Signing and the `beforeBroadcast` hook run inside that
 * turn, so the nonce a journaled transaction carries is final. The sender says when its transaction is handed
 * to the node; the embedded port ends the turn there, so the node's answer (on anvil, the whole block) no longer
 * holds every other send of the key back. A failed send (a journal hook that threw, a node that refused) leaves
 * no gap when nothing was sent after it; when a later nonce went out meanwhile, the monitor fills the refused
 * one at once. When the port asks for the chain's pending count, it is never taken below a
 * nonce the key's monitor still watches: a transaction whose answer was lost may be out, and the node counts
 * nothing above a gap. Every broadcast is watched by the key's monitor until it is mined
 * (createTransactionMonitor.ts): stuck, dropped and gapped nonces are handled there, not by the callers. A
 * monitor replaces only what its own instance broadcast, and fills a gap only after twice the replacement
 * deadline, so where instances share a key the one that sent the missing nonce re-sends it first.
 */
import { keccak256, type Address, type Chain, type Hex, type PublicClient } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { Logger } from "../log/createLogger.js";
import { relayMayHaveReachedChain } from "./relayReachedChain.js";
import type { RelayNoncePort } from "./relayNoncePort.js";
import {
  createTransactionMonitor,
  type BeforeBroadcast,
  type EstimatedCall,
  type GasPolicy,
  type MonitorEvent,
  type TransactionMonitor,
} from "./createTransactionMonitor.js";

export type { EstimatedCall, SignedTransaction } from "./createTransactionMonitor.js";

/** The serialised sender of one key: its transactions are broadcast one at a time, in nonce order. */
export type SerialSender = {
  address: Address;
  /**
   * Signs and broadcasts `call` with the next nonce; resolves to the transaction hash. `beforeBroadcast`
   * runs between signing and broadcasting (e.g. to journal the signed transaction first), and again before
   * each replacement the monitor broadcasts on the same nonce.
   */
  send: (call: EstimatedCall, options?: { beforeBroadcast?: BeforeBroadcast }) => Promise<Hex>;
  /** The watcher of this key's transactions: receipt waits that follow replacements, adoption after a restart. */
  monitor: TransactionMonitor;
};

/** How a sender's monitor names its key, prices replacements and reports. */
export type SenderMonitorOptions = {
  /** `relayer`, `minter` or `treasury`. */
  role: string;
  policy: GasPolicy;
  logger?: Logger | undefined;
  onEvent?: ((event: MonitorEvent) => void) | undefined;
};

/** Replacement after 30 s when nothing else is said: a few blocks on every chain the daemon runs on. */
export const DEFAULT_SENDER_MONITOR: SenderMonitorOptions = { role: "relayer", policy: { replaceAfterMs: 30_000 } };

/** Creates the sender of `account` on `chain` whose nonces come from the storage's `nonces` port. */
export function createKeySender(params: {
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
  const pendingNonce = async () => Math.max(await client.getTransactionCount({ address: account.address, blockTag: "pending" }), monitor.nextFreeNonce());
  return {
    address: account.address,
    monitor,
    send: (call, options) =>
      nonces.withNextNonce(chain.id, account.address, pendingNonce, async (nonce, sent) => {
        const serialized = await account.signTransaction({ type: "eip1559", chainId: chain.id, nonce, ...call });
        const hash = keccak256(serialized);
        await options?.beforeBroadcast?.({ hash, serialized });
        monitor.track({ nonce, call, signed: { hash, serialized }, beforeBroadcast: options?.beforeBroadcast });
        const answer = client.sendRawTransaction({ serializedTransaction: serialized }).catch((error: unknown) => {
          // Refused by the node: in no pool, nothing to watch. A lost answer may still be out: watched.
          if (!relayMayHaveReachedChain(error)) monitor.forget(nonce, hash);
          throw error;
        });
        // Signed, journaled and on its way: the next send signs while the node answers this one.
        sent();
        return answer;
      }),
  };
}
