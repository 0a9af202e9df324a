/**
 * The sender of a key several facilitator instances share (the relayer, the treasury). Where the
 * single-process {@link createSerialSender} tracks nonces in memory, this one takes each nonce under the
 * storage's per-key nonce lock (a database row lock with PostgreSQL), reading the chain's pending count
 * inside the lock, and only a successful broadcast moves the counter on: two instances never sign the same
 * nonce, and a send the node refuses leaves no gap. Broadcasts of the key are serialised across instances;
 * signing and the journal hook run inside that turn, so the nonce a journaled transaction carries is final.
 */
import { keccak256, type Chain, type PublicClient } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { RelayNoncePort } from "../storage/storagePorts.js";
import type { SerialSender } from "./createSerialSender.js";

/** Creates the sender of `account` on `chain` whose nonces come from the shared `nonces` port. */
export function createSharedKeySender(params: {
  client: PublicClient;
  chain: Chain;
  account: Pick<PrivateKeyAccount, "address" | "signTransaction">;
  nonces: RelayNoncePort;
}): SerialSender {
  const { client, chain, account, nonces } = params;
  const pendingNonce = () => client.getTransactionCount({ address: account.address, blockTag: "pending" });
  return {
    address: account.address,
    send: (call, options) =>
      nonces.withNextNonce(chain.id, account.address, pendingNonce, async (nonce) => {
        const serialized = await account.signTransaction({ type: "eip1559", chainId: chain.id, nonce, ...call });
        await options?.beforeBroadcast?.({ hash: keccak256(serialized), serialized });
        return client.sendRawTransaction({ serializedTransaction: serialized });
      }),
  };
}
