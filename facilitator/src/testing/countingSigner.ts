/** A key whose signer records the nonce of every transaction it signs, in order: how tests see a sender's nonces. */
import type { TransactionSerializable } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";

export function countSignedNonces(account: PrivateKeyAccount): { account: PrivateKeyAccount; signedNonces: number[] } {
  const signedNonces: number[] = [];
  const counted = {
    address: account.address,
    signTransaction: (transaction: TransactionSerializable) => {
      signedNonces.push(transaction.nonce ?? -1);
      return account.signTransaction(transaction);
    },
  };
  return { account: counted as unknown as PrivateKeyAccount, signedNonces };
}
