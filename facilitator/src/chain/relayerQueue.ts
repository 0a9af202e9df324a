/**
 * Sends the relayer's transactions one at a time with locally tracked nonces. Gas and fee estimates run
 * concurrently outside the queue; only sign + `eth_sendRawTransaction` are serialised, so concurrent permit
 * settles and mints never collide on a nonce. A send the node refuses resynchronises the nonce from the
 * chain's pending count before the next one.
 */
import { keccak256, type Address, type Chain, type Hex, type PublicClient } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";

/** A fully estimated call, ready to sign. */
export type RelayerCall = {
  to: Address;
  data: Hex;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
};

/** A signed transaction before it is broadcast. */
export type SignedTransaction = { hash: Hex; serialized: Hex };

/** The relayer's serialised sender. */
export type RelayerQueue = {
  address: Address;
  /**
   * Signs and broadcasts `call` with the next nonce; resolves to the transaction hash. `beforeBroadcast`
   * runs between signing and broadcasting (e.g. to journal the signed transaction first).
   */
  send: (call: RelayerCall, options?: { beforeBroadcast?: (signed: SignedTransaction) => Promise<void> }) => Promise<Hex>;
};

/** Creates the queue for `account` on `chain`. */
export function createRelayerQueue(params: { client: PublicClient; chain: Chain; account: PrivateKeyAccount }): RelayerQueue {
  const { client, chain, account } = params;
  let nextNonce: number | undefined;
  let tail: Promise<unknown> = Promise.resolve();

  const sendNow = async (call: RelayerCall, beforeBroadcast?: (signed: SignedTransaction) => Promise<void>): Promise<Hex> => {
    nextNonce ??= await client.getTransactionCount({ address: account.address, blockTag: "pending" });
    const serialized = await account.signTransaction({
      type: "eip1559",
      chainId: chain.id,
      nonce: nextNonce,
      ...call,
    });
    try {
      await beforeBroadcast?.({ hash: keccak256(serialized), serialized });
      const hash = await client.sendRawTransaction({ serializedTransaction: serialized });
      nextNonce++;
      return hash;
    } catch (error) {
      nextNonce = undefined;
      throw error;
    }
  };

  return {
    address: account.address,
    send: (call, options) => {
      const result = tail.then(() => sendNow(call, options?.beforeBroadcast));
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
