/**
 * Our own Merkle witnesses: the transfer tree followed from the token's logs, so a mint needs no indexer (which
 * would see every burn leaf asked for and the mint right after it). From the token's deployment block it reads
 * every `IndexedTransfer` in index order (paged `eth_getLogs`, only up to the final block, so no reorg can take
 * back a leaf it appended), appends each leaf with the version's formula, and keeps the path of every leaf sent
 * to one of our burn addresses (incrementalTree.ts). The tree stops at the verifier's proved index (read at the
 * final block) and its root is checked against `provedTransferRoots` there: a mismatch stops the follower with
 * {@link WitnessRootMismatchError}, and it gives no path after that.
 *
 * Logs read past the index a sync stops at wait in memory for the next root; the persisted resume block is the
 * block of the first of them, so a restart reads them again rather than losing them.
 */
import {
  type IncrementalTreeState,
  type IndexerProof,
  type Zerc20Protocol,
  createIncrementalTree,
  emptyIncrementalTreeState,
  zerc20TokenAbi,
  zerc20VerifierAbi,
} from "@svc/scheme";
import type { Address, PublicClient } from "viem";
import type { ChainFinality } from "../chain/chainFinality.js";
import { TransferLogGapError, WitnessRootMismatchError, WitnessUnavailableError } from "./errors.js";

/** Blocks per `eth_getLogs` request: below the range limit common RPC providers enforce. */
export const FOLLOW_CHUNK_BLOCKS = 2_000n;

/** Everything a follower needs to resume where it stopped. */
export type TreeFollowerState = {
  tree: IncrementalTreeState;
  /** The hash chain over the tree's leaves (the value the indexer reports beside a path). */
  hashChain: bigint;
  /** The first block whose logs have not all been appended. */
  nextBlock: bigint;
  /** The last proved index whose root the follower matched, and that root. */
  lastChecked?: { index: bigint; root: bigint } | undefined;
  /**
   * The burn address each tracked leaf was sent to, so a payment's paths are released by its address. A state
   * saved before this was kept has none: its tracked paths stay until the follower starts over.
   */
  trackedRecipients?: { leafIndex: bigint; to: Address }[] | undefined;
};

/** Where a follower stands. */
export type TreeFollowerProgress = {
  /** Leaves appended (the tree index of the followed root). */
  leaves: bigint;
  /** The first block whose logs have not all been appended. */
  nextBlock: bigint;
  /** The verifier's proved index at the final block, as the last sync read it. */
  provedIndex: bigint | undefined;
  /** The chain's final block as the last sync read it: the height the follower reads up to. */
  finalBlock: bigint | undefined;
  lastChecked: { index: bigint; root: bigint } | undefined;
  /** Leaf paths kept. */
  tracked: number;
};

/** The transfer tree followed from the chain, with paths for our leaves. */
export type TreeFollower = {
  /** Reads new final logs and appends up to the proved index (or `upTo`, when lower), then checks the root there. */
  sync: (options?: { upTo?: bigint }) => Promise<TreeFollowerProgress>;
  /** Paths of `leafIndices` under the root at `targetIndex`, in the indexer's shape; throws {@link WitnessUnavailableError}. */
  proofs: (targetIndex: bigint, leafIndices: readonly bigint[]) => IndexerProof[];
  /** Stops keeping the paths of the leaves sent to these burn addresses (their payments need them no more). */
  release: (burnAddresses: readonly Address[]) => void;
  progress: () => TreeFollowerProgress;
  /** A copy of the state, for persistence. */
  state: () => TreeFollowerState;
};

type PendingLeaf = { index: bigint; from: Address; to: Address; value: bigint; blockNumber: bigint; track: boolean };

/** The state of a follower that has read nothing yet: the empty tree, from the token's deployment block. */
export function initialFollowerState(deployBlock: bigint): TreeFollowerState {
  return { tree: emptyIncrementalTreeState(), hashChain: 0n, nextBlock: deployBlock };
}

/** Creates a follower of `token`'s tree from `state`. */
export function createTreeFollower(params: {
  client: PublicClient;
  token: Address;
  verifier: Address;
  protocol: Zerc20Protocol;
  finality: Pick<ChainFinality, "finalBlock" | "atFinalBlock">;
  /**
   * Whether a leaf's recipient is one of our burn addresses (its path is kept from then on). Asked once per
   * recipient of a page of logs, as the page is read: a burn address is issued before anything is sent to it.
   */
  isOurs: (to: Address) => boolean | Promise<boolean>;
  state: TreeFollowerState;
  chunkBlocks?: bigint;
}): TreeFollower {
  const { client, protocol } = params;
  const chunk = params.chunkBlocks ?? FOLLOW_CHUNK_BLOCKS;
  const tree = createIncrementalTree(params.state.tree);
  let hashChain = params.state.hashChain;
  let nextBlock = params.state.nextBlock;
  let lastChecked = params.state.lastChecked;
  // Lowercased burn address of each tracked leaf.
  const recipients = new Map((params.state.trackedRecipients ?? []).map(({ leafIndex, to }) => [leafIndex, to.toLowerCase()]));
  let provedIndex: bigint | undefined;
  let lastFinalBlock: bigint | undefined;
  let stopped: WitnessRootMismatchError | undefined;
  // Read but not yet appended (past the index the last sync stopped at), in index order.
  let pending: PendingLeaf[] = [];
  let running: Promise<TreeFollowerProgress> | undefined;

  const progress = (): TreeFollowerProgress => ({
    leaves: tree.size(),
    nextBlock: pending[0]?.blockNumber ?? nextBlock,
    provedIndex,
    finalBlock: lastFinalBlock,
    lastChecked,
    tracked: tree.trackedCount(),
  });

  const readChunk = async (finalBlock: bigint) => {
    const end = nextBlock + chunk - 1n < finalBlock ? nextBlock + chunk - 1n : finalBlock;
    const logs = await client.getContractEvents({
      address: params.token,
      abi: zerc20TokenAbi,
      eventName: "IndexedTransfer",
      fromBlock: nextBlock,
      toBlock: end,
      strict: true,
    });
    const recipients = [...new Set(logs.map((log) => log.args.to.toLowerCase() as Address))];
    const answers = await Promise.all(recipients.map(async (to) => [to, await params.isOurs(to)] as const));
    const ourRecipients = new Set(answers.flatMap(([to, ours]) => (ours ? [to] : [])));
    for (const log of logs) {
      const expected = tree.size() + BigInt(pending.length);
      // A resumed follower reads its resume block again: what it already holds is skipped.
      if (log.args.index < expected) continue;
      if (log.args.index > expected) throw new TransferLogGapError({ expected, received: log.args.index });
      pending.push({
        index: log.args.index,
        from: log.args.from,
        to: log.args.to,
        value: log.args.value,
        blockNumber: log.blockNumber,
        track: ourRecipients.has(log.args.to.toLowerCase() as Address),
      });
    }
    nextBlock = end + 1n;
  };

  const appendUpTo = (target: bigint) => {
    let used = 0;
    for (const leaf of pending) {
      if (tree.size() >= target) break;
      tree.append(protocol.transferLeaf(leaf), { track: leaf.track });
      if (leaf.track) recipients.set(leaf.index, leaf.to.toLowerCase());
      hashChain = protocol.nextHashChain(hashChain, leaf);
      used++;
    }
    pending = pending.slice(used);
  };

  const sync = async (upTo: bigint | undefined): Promise<TreeFollowerProgress> => {
    if (stopped) throw stopped;
    const at = await params.finality.atFinalBlock();
    const [finalBlock, proved] = await Promise.all([
      params.finality.finalBlock(),
      client.readContract({ address: params.verifier, abi: zerc20VerifierAbi, functionName: "latestProvedIndex", ...at }),
    ]);
    provedIndex = proved;
    lastFinalBlock = finalBlock;
    const target = upTo !== undefined && upTo < proved ? upTo : proved;
    appendUpTo(target);
    while (tree.size() < target && nextBlock <= finalBlock) {
      await readChunk(finalBlock);
      appendUpTo(target);
    }
    if (tree.size() === target && lastChecked?.index !== target) {
      const root = tree.root();
      const onChain = await client.readContract({
        address: params.verifier,
        abi: zerc20VerifierAbi,
        functionName: "provedTransferRoots",
        args: [target],
        ...at,
      });
      if (onChain !== root) {
        stopped = new WitnessRootMismatchError({ index: target, proved: onChain, computed: root });
        throw stopped;
      }
      lastChecked = { index: target, root };
    }
    return progress();
  };

  return {
    // One sync at a time: a second caller waits for the running one and then runs its own.
    sync: (options) => {
      const run = (running ?? Promise.resolve()).catch(() => undefined).then(() => sync(options?.upTo));
      running = run;
      return run;
    },
    proofs: (targetIndex, leafIndices) => {
      if (stopped) throw stopped;
      const root = lastChecked?.index === targetIndex && tree.size() === targetIndex ? lastChecked.root : undefined;
      if (root === undefined) throw new WitnessUnavailableError({ targetIndex, reason: tree.size() < targetIndex ? "behind" : "ahead" });
      return leafIndices.map((leafIndex) => {
        const path = tree.path(leafIndex);
        if (path === undefined) throw new WitnessUnavailableError({ targetIndex, leafIndex, reason: "untracked" });
        return { target_index: targetIndex, leaf_index: leafIndex, root, hash_chain: hashChain, siblings: path.siblings };
      });
    },
    release: (burnAddresses) => {
      const released = new Set(burnAddresses.map((address) => address.toLowerCase()));
      for (const [leafIndex, to] of recipients) {
        if (!released.has(to)) continue;
        tree.untrack(leafIndex);
        recipients.delete(leafIndex);
      }
    },
    progress,
    state: () => ({
      tree: tree.state(),
      hashChain,
      nextBlock: pending[0]?.blockNumber ?? nextBlock,
      lastChecked,
      trackedRecipients: [...recipients].map(([leafIndex, to]) => ({ leafIndex, to: to as Address })),
    }),
  };
}
