/** Pulls new IndexedTransfer and TransferRootProved logs from the chain into a {@link TransferLog}. */
import { zerc20TokenAbi, zerc20VerifierAbi } from "@svc/scheme";
import type { Address, PublicClient } from "viem";
import type { TransferLog } from "./transferLog.js";

/** Where the indexed token and its verifier live. */
export type IndexedDeployment = { token: Address; verifier: Address };

/**
 * Reads logs from `log.nextBlock` to the latest block and appends them in order. Returns `false` when the
 * chain no longer holds what the log already has (a reorg or an anvil snapshot revert): the caller then
 * starts a fresh log.
 */
export async function syncTransferLog(client: PublicClient, deployment: IndexedDeployment, log: TransferLog): Promise<boolean> {
  const latest = await client.getBlockNumber();
  const onChainIndex = await client.readContract({
    address: deployment.token,
    abi: zerc20TokenAbi,
    functionName: "index",
    blockNumber: latest,
  });
  if (onChainIndex < BigInt(log.size) || latest + 1n < log.nextBlock) return false;
  if (latest < log.nextBlock) return true;
  const range = { fromBlock: log.nextBlock, toBlock: latest, strict: true } as const;
  const [transfers, roots] = await Promise.all([
    client.getContractEvents({ address: deployment.token, abi: zerc20TokenAbi, eventName: "IndexedTransfer", ...range }),
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
