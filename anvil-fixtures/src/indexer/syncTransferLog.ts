/** Pulls new IndexedTransfer and TransferRootProved logs, and the reserved index, from the chain into a {@link TransferLog}. */
import { zerc20TokenAbiV1, zerc20VerifierAbi } from "@svc/scheme";
import type { Address, PublicClient } from "viem";
import type { TransferLog } from "./transferLog.js";

/** Where the indexed token and its verifier live. */
export type IndexedDeployment = { token: Address; verifier: Address };

/**
 * Reads logs from `log.nextBlock` to the latest block and appends them in order. Returns `false` when the
 * chain no longer holds what the log already has (a reorg or an anvil snapshot revert): the caller then
 * starts a fresh log. The token and verifier reads used here are the same in both versions.
 */
export async function syncTransferLog(client: PublicClient, deployment: IndexedDeployment, log: TransferLog): Promise<boolean> {
  // Uncached: a block number even 50 ms old may predate the transfer a caller just mined and wants proved.
  const latest = await client.getBlockNumber({ cacheTime: 0 });
  const [onChainIndex, reservedIndex] = await Promise.all([
    client.readContract({ address: deployment.token, abi: zerc20TokenAbiV1, functionName: "index", blockNumber: latest }),
    client.readContract({ address: deployment.verifier, abi: zerc20VerifierAbi, functionName: "latestReservedIndex", blockNumber: latest }),
  ]);
  if (onChainIndex < BigInt(log.size) || latest + 1n < log.nextBlock) return false;
  log.reservedIndex = Number(reservedIndex);
  if (latest < log.nextBlock) return true;
  const range = { fromBlock: log.nextBlock, toBlock: latest, strict: true } as const;
  const [transfers, roots] = await Promise.all([
    client.getContractEvents({ address: deployment.token, abi: zerc20TokenAbiV1, eventName: "IndexedTransfer", ...range }),
    client.getContractEvents({ address: deployment.verifier, abi: zerc20VerifierAbi, eventName: "TransferRootProved", ...range }),
  ]);
  for (const entry of transfers) {
    log.append({
      index: Number(entry.args.index),
      from: entry.args.from,
      to: entry.args.to,
      value: entry.args.value,
      blockNumber: entry.blockNumber,
    });
  }
  for (const entry of roots) log.recordProvedRoot(Number(entry.args.index), entry.args.root);
  log.nextBlock = latest + 1n;
  return true;
}
