/**
 * How deep is deep enough, for the two questions the daemon asks of a block: may a payment whose burn sits in
 * it be `accepted` (`network.confirmations` deep: the trade of latency against the risk of a reorg), and can
 * it still be reorganised away at all (final: the node's `finalized` block, or `network.finality_depth` deep).
 * Until a burn, a mint or a proved root is final, the daemon keeps watching it (finalize/watchReorgs.ts).
 */
import type { PublicClient } from "viem";

/** The daemon's view of depth on its chain. */
export type ChainFinality = {
  /** How deep a burn must be before its payment is accepted (1: included). */
  confirmations: number;
  /** The highest block number that can no longer be reorganised away. */
  finalBlock: () => Promise<bigint>;
  /**
   * Block parameters of a contract read at the final block (`{}`, the latest, when every included block is
   * final): what the daemon reads of state that a reorg could take back, such as the verifier's proved roots.
   */
  atFinalBlock: () => Promise<{ blockNumber?: bigint }>;
  /**
   * Waits, polling the head up to `timeoutMs`, until `blockNumber` is `confirmations` deep; whether it got
   * there. With one confirmation it answers at once without a read: an included block is deep enough.
   */
  confirmed: (blockNumber: bigint, options: { timeoutMs: number; intervalMs?: number | undefined }) => Promise<boolean>;
};

/** Finality from a depth in blocks, or from the node's `finalized` block tag. */
export type FinalityRule = { depth: number } | { tag: "finalized" };

/** Creates the finality view of `client`'s chain. */
export function createChainFinality(client: PublicClient, params: { confirmations: number; finality: FinalityRule }): ChainFinality {
  const { confirmations, finality } = params;
  // The block number cache (one second) would hold a waiting settle a second behind the chain.
  const head = () => client.getBlockNumber({ cacheTime: 0 });
  const finalBlock = async (): Promise<bigint> => {
    if ("depth" in finality) return (await head()) - BigInt(finality.depth - 1);
    const block = await client.getBlock({ blockTag: finality.tag, includeTransactions: false });
    return block.number;
  };
  const confirmed: ChainFinality["confirmed"] = async (blockNumber, options) => {
    if (confirmations <= 1) return true;
    const needed = blockNumber + BigInt(confirmations - 1);
    const giveUpAt = Date.now() + options.timeoutMs;
    // As often as the receipt is polled: each wasted interval is paid by every paid request.
    const interval = options.intervalMs ?? 100;
    for (;;) {
      if ((await head()) >= needed) return true;
      if (Date.now() + interval > giveUpAt) return false;
      await new Promise((resolve) => setTimeout(resolve, interval));
    }
  };
  const atFinalBlock = async (): Promise<{ blockNumber?: bigint }> => ("depth" in finality && finality.depth <= 1 ? {} : { blockNumber: await finalBlock() });
  return { confirmations, finalBlock, atFinalBlock, confirmed };
}

/** The finality rule a configuration asks for: its depth, or the node's `finalized` tag, or (locally) `confirmations`. */
export function finalityRule(network: { chain_id: number; confirmations: number; finality_depth?: number | undefined }): FinalityRule {
  if (network.finality_depth !== undefined) return { depth: network.finality_depth };
  return network.chain_id === LOCAL_CHAIN_ID ? { depth: network.confirmations } : { tag: "finalized" };
}

/** The rule as operators read it in `started`: `3 blocks` or `finalized`. */
export function describeFinality(rule: FinalityRule): string {
  return "depth" in rule ? `${rule.depth} blocks` : rule.tag;
}

const LOCAL_CHAIN_ID = 31337;
