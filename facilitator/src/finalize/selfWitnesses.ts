/**
 * `[finalize] witnesses = "self"` as the finalize loop uses it: the transfer-tree follower restored from the
 * storage's saved state (or started at the token's deployment block), synced once per pass up to the pass's
 * proved index and saved when it moved, its paths served in the indexer's shape (followedWitnesses.ts), and the
 * paths of a payment released once it can change no more: failed, or minted in a block that is final (a reorg
 * may take back a younger mint, and the payment is minted again from the same paths). A sync that fails is
 * logged and tried again next pass; a wrong root stops the follower for good (`witness_root_mismatch`), and no
 * path of it reaches a mint.
 */
import type { Address } from "viem";
import type { Logger } from "../log/createLogger.js";
import type { WitnessStatePort } from "../storage/storagePorts.js";
import { initialFollowerState, type TreeFollower, type TreeFollowerProgress, type TreeFollowerState } from "../witnesses/createTreeFollower.js";
import { WitnessRootMismatchError, WitnessUnavailableError } from "../witnesses/errors.js";
import { decodeFollowerState, encodeFollowerState } from "../witnesses/followerStateCodec.js";
import { followedWitnessIndexer } from "./followedWitnesses.js";
import type { IndexerClient } from "./indexerClient.js";

/** The follower as the finalize loop drives it. */
export type SelfWitnesses = {
  /** Paths from the follower, in the indexer's shape. */
  indexer: IndexerClient;
  /** Brings the follower up to `provedIndex` (the pass's) and saves it when it moved; never throws. */
  sync: (provedIndex: bigint | undefined) => Promise<void>;
  /** Stops keeping the paths of the leaves sent to these burn addresses (their payments need them no more). */
  release: (burnAddresses: readonly Address[]) => void;
  /** Where the follower stands; `undefined` before its saved state is read. */
  progress: () => TreeFollowerProgress | undefined;
};

/** The key a follower's state is saved under: one tree per token and chain. */
export function witnessStateBinding(chainId: number, token: Address): string {
  return `${chainId}:${token.toLowerCase()}`;
}

/** Opens the follower lazily: its saved state is read on first use, so building the loop stays synchronous. */
export function createSelfWitnesses(params: {
  create: (state: TreeFollowerState) => TreeFollower;
  deployBlock: bigint;
  binding: string;
  store: WitnessStatePort;
  logger: Logger;
  onProgress?: (progress: TreeFollowerProgress) => void;
}): SelfWitnesses {
  const { store, binding, logger } = params;
  let follower: TreeFollower | undefined;
  let opening: Promise<TreeFollower> | undefined;
  let savedLeaves: bigint | undefined;
  let savedBlock: bigint | undefined;
  // Paths released since the last save: written with the next one, so a restart does not keep them again.
  let released = false;

  const open = () => {
    opening ??= (async () => {
      const text = await store.load(binding);
      const saved = text === undefined ? undefined : decodeFollowerState(text);
      if (text !== undefined && saved === undefined) logger.warn("witness_state_discarded", { reason: "unreadable" });
      const state = saved ?? initialFollowerState(params.deployBlock);
      follower = params.create(state);
      savedLeaves = state.tree.size;
      savedBlock = state.nextBlock;
      logger.info("witness_follower_opened", { leaves: state.tree.size.toString(), next_block: state.nextBlock.toString(), restored: saved !== undefined });
      params.onProgress?.(follower.progress());
      return follower;
    })();
    opening.catch(() => {
      opening = undefined;
    });
    return opening;
  };

  const save = async (opened: TreeFollower) => {
    const state = opened.state();
    if (state.tree.size === savedLeaves && state.nextBlock === savedBlock && !released) return;
    released = false;
    await store.save(binding, state.tree.size, encodeFollowerState(state));
    savedLeaves = state.tree.size;
    savedBlock = state.nextBlock;
  };

  const indexer = followedWitnessIndexer({
    // A mint may sync the follower ahead of the pass: its progress is reported too, so the gauges never lag a mint.
    sync: async (options) => {
      const progress = await (await open()).sync(options);
      params.onProgress?.(progress);
      return progress;
    },
    proofs: (targetIndex, leafIndices) => {
      if (follower === undefined) throw new WitnessUnavailableError({ targetIndex, reason: "behind" });
      return follower.proofs(targetIndex, leafIndices);
    },
    progress: () =>
      follower?.progress() ?? {
        leaves: 0n,
        nextBlock: params.deployBlock,
        provedIndex: undefined,
        finalBlock: undefined,
        lastChecked: undefined,
        tracked: 0,
      },
  });

  return {
    indexer,
    sync: async (provedIndex) => {
      try {
        const opened = await open();
        const progress = await opened.sync(provedIndex === undefined ? undefined : { upTo: provedIndex });
        params.onProgress?.(progress);
        await save(opened);
      } catch (error) {
        if (follower !== undefined) params.onProgress?.(follower.progress());
        const name = error instanceof Error ? error.name : "unknown";
        if (error instanceof WitnessRootMismatchError) logger.error("witness_root_mismatch", { error: name, detail: error.details });
        else logger.warn("witness_sync_failed", { error: name });
      }
    },
    release: (burnAddresses) => {
      const opened = follower;
      if (opened === undefined || burnAddresses.length === 0) return;
      opened.release(burnAddresses);
      released = true;
      params.onProgress?.(opened.progress());
    },
    progress: () => follower?.progress(),
  };
}
