/**
 * Looks up, through PermitBurner's `BurnExecuted` event, the transaction that executed a burn authorization:
 * how a re-sent or crash-interrupted permit payment is reconciled with what already happened on-chain.
 */
import { permitBurnerAbi } from "@svc/scheme";
import type { Address, Hex, PublicClient } from "viem";

/** Where an executed authorization burned. */
export type ExecutedPermitBurn = { txHash: Hex; blockNumber: bigint; burnAddress: Address; value: bigint };

/** The `BurnExecuted` of `authorizationId` at or after `fromBlock`, if any. */
export async function findPermitBurn(
  client: PublicClient,
  params: { helper: Address; authorizationId: Hex; fromBlock: bigint },
): Promise<ExecutedPermitBurn | undefined> {
  const [log] = await client.getContractEvents({
    address: params.helper,
    abi: permitBurnerAbi,
    eventName: "BurnExecuted",
    args: { authorizationId: params.authorizationId },
    fromBlock: params.fromBlock,
    strict: true,
  });
  if (!log) return undefined;
  return { txHash: log.transactionHash, blockNumber: log.blockNumber, burnAddress: log.args.burnAddress, value: log.args.value };
}
