/**
 * Sends one key's transactions with locally tracked nonces: the daemon builds one for the relayer (permit burns,
 * mints) and one for the treasury (custodial fee sweeps). Gas and fee estimates run concurrently
 * outside the queue. A send takes its nonce the moment it is called and is signed right away, outside the
 * queue; only the broadcast (`beforeBroadcast` + `eth_sendRawTransaction`) is serialised, in nonce order, so
 * concurrent permit settles and mints never collide on a nonce. A broadcast always carries the nonce that
 * follows the last accepted one: when an earlier send failed, the nonce signed ahead is stale and the call is
 * signed again for the right one, so a failure never leaves a gap that would hold later relays back. A send
 * the node refuses resynchronises the nonce from the chain's pending count before the next broadcast.
 */
import { keccak256, type Address, type Chain, type Hex, type PublicClient } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";

/** A fully estimated call, ready to sign. */
export type EstimatedCall = {
  to: Address;
  data: Hex;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
};

/** A signed transaction before it is broadcast. */
export type SignedTransaction = { hash: Hex; serialized: Hex };

/** The serialised sender of one key: its transactions are broadcast one at a time, in nonce order. */
export type SerialSender = {
  address: Address;
  /**
   * Signs and broadcasts `call` with the next nonce; resolves to the transaction hash. `beforeBroadcast`
   * runs between signing and broadcasting (e.g. to journal the signed transaction first).
   */
  send: (call: EstimatedCall, options?: { beforeBroadcast?: (signed: SignedTransaction) => Promise<void> }) => Promise<Hex>;
};

type SignedAhead = { nonce: number; serialized: Hex } | undefined;

/** Creates the serialised sender for `account` on `chain`. */
export function createSerialSender(params: {
  client: PublicClient;
  chain: Chain;
  account: Pick<PrivateKeyAccount, "address" | "signTransaction">;
}): SerialSender {
  const { client, chain, account } = params;
  // The nonce the next broadcast carries: the one after the last accepted send (read from the chain at first).
  let broadcastNonce: number | undefined;
  // The nonce the next `send` signs ahead with; unknown until `broadcastNonce` is, and again after a failure.
  let aheadNonce: number | undefined;
  // Sends whose broadcast has not finished yet, the one broadcasting included.
  let unfinished = 0;
  let tail: Promise<unknown> = Promise.resolve();

  const sign = (call: EstimatedCall, nonce: number): Promise<Hex> => account.signTransaction({ type: "eip1559", chainId: chain.id, nonce, ...call });

  const broadcast = async (call: EstimatedCall, ahead: Promise<SignedAhead>, beforeBroadcast?: (signed: SignedTransaction) => Promise<void>): Promise<Hex> => {
    try {
      if (broadcastNonce === undefined) {
        broadcastNonce = await client.getTransactionCount({ address: account.address, blockTag: "pending" });
        // This send and every one queued behind it take the nonces from here on; a new send comes after them.
        aheadNonce = broadcastNonce + unfinished;
      }
      const nonce = broadcastNonce;
      const signed = await ahead;
      const serialized = signed?.nonce === nonce ? signed.serialized : await sign(call, nonce);
      await beforeBroadcast?.({ hash: keccak256(serialized), serialized });
      const hash = await client.sendRawTransaction({ serializedTransaction: serialized });
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
