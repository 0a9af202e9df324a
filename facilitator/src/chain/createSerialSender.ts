/**
 * Sends one key's transactions with locally tracked nonces: the daemon builds one for the relayer (permit burns,
 * mints) and one for the treasury (custodial fee sweeps). Gas and fee estimates run concurrently
 * outside the queue. A send takes its nonce the moment it is called and is signed right away, outside the
 * queue; only the broadcast (`beforeBroadcast` + `eth_sendRawTransaction`) is serialised, in nonce order, so
 * concurrent permit settles and mints never collide on a nonce. A broadcast always carries the nonce that
 * follows the last accepted one: when an earlier send failed, the nonce signed ahead is stale and the call is
 * signed again for the right one, so a failure never leaves a gap that would hold later relays back. A send
 * the node refuses resynchronises the nonce from the chain's pending count before the next broadcast, never
 * below a nonce the key's monitor still watches (a transaction whose answer was lost may be out, and the
 * node counts nothing above a gap). Every broadcast is watched by the key's monitor until it is mined
 * (createTransactionMonitor.ts): stuck, dropped and gapped nonces are handled there, not by the callers.
 */
import { keccak256, type Address, type Chain, type Hex, type PublicClient } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { Logger } from "../log/createLogger.js";
import { relayMayHaveReachedChain } from "../settlement/relayReachedChain.js";
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

type SignedAhead = { nonce: number; serialized: Hex } | undefined;

/** Creates the serialised sender for `account` on `chain`. */
export function createSerialSender(params: {
  client: PublicClient;
  chain: Chain;
  account: Pick<PrivateKeyAccount, "address" | "signTransaction">;
  /** The monitor's role and policy (its loop runs once `monitor.start()` is called). */
  monitor?: SenderMonitorOptions | undefined;
}): SerialSender {
  const { client, chain, account } = params;
  const monitor = createTransactionMonitor({ client, chain, account, ...(params.monitor ?? DEFAULT_SENDER_MONITOR) });
  // The nonce the next broadcast carries: the one after the last accepted send (read from the chain at first).
  let broadcastNonce: number | undefined;
  // The nonce the next `send` signs ahead with; unknown until `broadcastNonce` is, and again after a failure.
  let aheadNonce: number | undefined;
  // Sends whose broadcast has not finished yet, the one broadcasting included.
  let unfinished = 0;
  let tail: Promise<unknown> = Promise.resolve();

  const sign = (call: EstimatedCall, nonce: number): Promise<Hex> => account.signTransaction({ type: "eip1559", chainId: chain.id, nonce, ...call });

  const broadcast = async (call: EstimatedCall, ahead: Promise<SignedAhead>, beforeBroadcast?: BeforeBroadcast): Promise<Hex> => {
    try {
      if (broadcastNonce === undefined) {
        const pending = await client.getTransactionCount({ address: account.address, blockTag: "pending" });
        broadcastNonce = Math.max(pending, monitor.nextFreeNonce());
        // This send and every one queued behind it take the nonces from here on; a new send comes after them.
        aheadNonce = broadcastNonce + unfinished;
      }
      const nonce = broadcastNonce;
      const signed = await ahead;
      const serialized = signed?.nonce === nonce ? signed.serialized : await sign(call, nonce);
      const signedHash = keccak256(serialized);
      await beforeBroadcast?.({ hash: signedHash, serialized });
      monitor.track({ nonce, call, signed: { hash: signedHash, serialized }, beforeBroadcast });
      const hash = await client.sendRawTransaction({ serializedTransaction: serialized }).catch((error: unknown) => {
        // Refused by the node: in no pool, nothing to watch. A lost answer may still be out: watched.
        if (!relayMayHaveReachedChain(error)) monitor.forget(nonce, signedHash);
        throw error;
      });
      broadcastNonce = nonce + 1;
      return hash;
    } catch (error) {
      broadcastNonce = undefined;
      aheadNonce = undefined;
      throw error;
    } finally {
      unfinished--;
    }
  };

  return {
    address: account.address,
    monitor,
    send: (call, options) => {
      unfinished++;
      const nonce = aheadNonce;
      if (aheadNonce !== undefined) aheadNonce++;
      // A failed signature here is not final: the broadcast signs again for the nonce it actually carries.
      const ahead: Promise<SignedAhead> =
        nonce === undefined
          ? Promise.resolve(undefined)
          : sign(call, nonce).then(
              (serialized) => ({ nonce, serialized }),
              () => undefined,
            );
      const result = tail.then(() => broadcast(call, ahead, options?.beforeBroadcast));
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
