/**
 * A pass's indexer reads, batched: before a finalize pass mints, the transfers of every payment it is about
 * to mint are scanned once and all their Merkle paths are fetched in one `/proofs` request, mixed with decoy
 * leaves of other addresses from the scanned ranges (mixProofLeaves.ts). The finalize step then reads
 * through the same TransferScanner and IndexerClient shapes and is served from this pass's batch (split into
 * requests of at most the indexer's leaf cap, each with its own decoys). Whatever
 * the batch lacks (a root proved mid-pass, a payment whose scan failed) is asked for one payment at a time,
 * still mixed with decoys. The prefetch is best-effort and never throws: a failure here shows up, with its
 * reason code, in the finalize step of the payment concerned.
 */
import { zerc20VerifierAbi } from "@svc/scheme";
import type { Address, Hex, PublicClient } from "viem";
import type { ScanResult, ScanTarget, TransferScanner } from "./createTransferScanner.js";
import type { IndexerClient, TransferProof } from "./indexerClient.js";
import { splitProofRequests } from "./mixProofLeaves.js";

/** The batched reads of one pass, and the scanner and indexer the finalize step reads through. */
export type FinalizePrefetch = {
  /** Scans `targets` and fetches all their paths in one request; replaces the previous pass's batch. */
  prefetch: (targets: readonly ScanTarget[]) => Promise<void>;
  transfers: TransferScanner;
  indexer: IndexerClient;
  /** Which payments can skip this pass because they wait for a root that has not been proved since. */
  rootWait: RootWait;
  /**
   * The verifier's proved index as this pass read it (read afresh when the pass could not): every payment of a
   * pass proves against the same root, so a mint landing mid-pass (a new transfer, soon a new root) does not
   * send the rest of the pass back to the indexer for paths under a newer root.
   */
  provedIndex: () => Promise<bigint>;
};

/**
 * Payments waiting for a proved root cost nothing until the verifier's `latestProvedIndex` moves: a payment
 * that waited at index P is skipped (no receipt, scan or contract read of its own) while the pass's index is
 * still P. Roots are proved minutes apart on a real chain, so without this every pass would re-read every
 * waiting payment for nothing.
 */
export type RootWait = {
  /** True when the payment waited for a root at the index this pass read. */
  unchanged: (challengeNonce: Hex) => boolean;
  /** Records that the payment waits for a root beyond `provedIndex`. */
  waiting: (challengeNonce: Hex, provedIndex: bigint) => void;
};

const key = (challengeNonce: Hex) => challengeNonce.toLowerCase();

/** Wraps the scanner and the indexer client with a per-pass batch. */
export function createFinalizePrefetch(params: {
  scanner: TransferScanner;
  indexer: IndexerClient;
  client: PublicClient;
  verifier: Address;
  /** Where proved roots are read: at the final block, so no mint proves against a root a reorg takes back. */
  atFinalBlock?: () => Promise<{ blockNumber?: bigint }>;
}): FinalizePrefetch {
  let scans = new Map<string, ScanResult>();
  let decoys: bigint[] = [];
  let batch: { targetIndex: bigint; byLeaf: Map<bigint, TransferProof> } | undefined;
  let passIndex: bigint | undefined;
  const waitingAt = new Map<string, bigint>();
  const rootWait: RootWait = {
    unchanged: (challengeNonce) => passIndex !== undefined && waitingAt.get(key(challengeNonce)) === passIndex,
    waiting: (challengeNonce, provedIndex) => void waitingAt.set(key(challengeNonce), provedIndex),
  };

  const readProvedIndex = async () =>
    params.client.readContract({
      address: params.verifier,
      abi: zerc20VerifierAbi,
      functionName: "latestProvedIndex",
      ...(await (params.atFinalBlock?.() ?? {})),
    });

  // Split to the indexer's per-request cap, decoys in every request.
  const mixedProofs = async (targetIndex: bigint, own: readonly bigint[]) => {
    const answers = await Promise.all(splitProofRequests(own, decoys, targetIndex).map((leaves) => params.indexer.proofs(targetIndex, leaves)));
    return answers.flat();
  };

  return {
    prefetch: async (targets) => {
      scans = new Map();
      decoys = [];
      batch = undefined;
      passIndex = await readProvedIndex().catch(() => undefined);
      const pending = new Set(targets.map((target) => key(target.challenge.challengeNonce)));
      for (const waiter of waitingAt.keys()) if (!pending.has(waiter)) waitingAt.delete(waiter);
      if (targets.length === 0) return params.scanner.retain?.(targets).catch(() => undefined);
      for (const target of targets) {
        if (rootWait.unchanged(target.challenge.challengeNonce)) continue;
        const scan = await params.scanner.transfersTo(target).catch(() => undefined);
        if (scan !== undefined) scans.set(key(target.challenge.challengeNonce), scan);
      }
      // The scanner's shared cache keeps only the blocks this pass's payments still need.
      await params.scanner.retain?.(targets).catch(() => undefined);
      decoys = [...scans.values()].flatMap((scan) => scan.others.map((transfer) => transfer.event_index));
      const targetIndex = passIndex;
      if (targetIndex === undefined) return;
      const own = [...new Set([...scans.values()].flatMap((scan) => scan.transfers.map((transfer) => transfer.event_index)))].filter(
        (leaf) => leaf < targetIndex,
      );
      if (own.length === 0) return;
      const answered = await mixedProofs(targetIndex, own).catch(() => undefined);
      if (answered !== undefined) batch = { targetIndex, byLeaf: new Map(answered.map((path) => [path.leaf_index, path])) };
    },
    rootWait,
    provedIndex: async () => passIndex ?? (await readProvedIndex()),
    transfers: {
      transfersTo: async (target) => scans.get(key(target.challenge.challengeNonce)) ?? params.scanner.transfersTo(target),
    },
    indexer: {
      proofs: async (targetIndex, leafIndices) => {
        const served = batch?.targetIndex === targetIndex ? leafIndices.flatMap((leaf) => batch?.byLeaf.get(leaf) ?? []) : [];
        return served.length === leafIndices.length ? served : mixedProofs(targetIndex, leafIndices);
      },
    },
  };
}
