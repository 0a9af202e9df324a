/** Waits for a transaction receipt up to a bound, without failing when the transaction is still pending. */
import { TransactionReceiptNotFoundError, type Hex, type PublicClient, type TransactionReceipt } from "viem";

/** Polls `eth_getTransactionReceipt` until it answers or `timeoutMs` passed; `undefined` means still pending. */
export async function pollReceipt(
  client: PublicClient,
  hash: Hex,
  options: { timeoutMs: number; intervalMs?: number },
): Promise<TransactionReceipt | undefined> {
  const giveUpAt = Date.now() + options.timeoutMs;
  const interval = options.intervalMs ?? 100;
  for (;;) {
    const receipt = await client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    });
    if (receipt) return receipt;
    if (Date.now() + interval > giveUpAt) return undefined;
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
