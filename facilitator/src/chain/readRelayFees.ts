/**
 * EIP-1559 fees for a relay, read in one JSON-RPC round trip. viem's `estimateFeesPerGas` asks for the latest
 * block and only then for `eth_maxPriorityFeePerGas`: two sequential round trips on every settle. Here both go
 * out in the same tick (so a batching transport sends them together, with whatever else is pending) and the
 * result is combined with viem's own rule for a chain without fee hooks, which the daemon's chain is:
 * `maxFeePerGas = baseFeePerGas × 1.2 + maxPriorityFeePerGas`. The block number is read alongside, which
 * leaves it in viem's block-number cache for whoever asks next (the permit intent's `fromBlock`).
 */
import { Eip1559FeesNotSupportedError, type PublicClient } from "viem";

/** viem's default `baseFeeMultiplier` (1.2) as a fraction. */
const BASE_FEE_MULTIPLIER = { numerator: 12n, denominator: 10n } as const;

/** The fees to sign a relay with, and the block number read with them. */
export type RelayFees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; blockNumber: bigint };

/**
 * Reads the latest block, the node's priority fee and the block number together; equal to viem's
 * `estimateFeesPerGas()` on the same block. Throws `Eip1559FeesNotSupportedError` on a chain without base fee.
 *
 * @example
 * const fees = await readRelayFees(client);
 */
export async function readRelayFees(client: PublicClient): Promise<RelayFees> {
  const [block, maxPriorityFeePerGas, blockNumber] = await Promise.all([client.getBlock(), client.estimateMaxPriorityFeePerGas(), client.getBlockNumber()]);
  if (typeof block.baseFeePerGas !== "bigint") throw new Eip1559FeesNotSupportedError();
  const baseFee = (block.baseFeePerGas * BASE_FEE_MULTIPLIER.numerator) / BASE_FEE_MULTIPLIER.denominator;
  return { maxFeePerGas: baseFee + maxPriorityFeePerGas, maxPriorityFeePerGas, blockNumber };
}
