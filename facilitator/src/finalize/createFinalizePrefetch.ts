/**
 * A pass's indexer reads, batched: before a finalize pass mints, the transfers of every payment it is about
 * to mint are scanned once and all their Merkle paths are fetched in one `/proofs` request, mixed with decoy
 * leaves of other addresses from the scanned ranges (mixProofLeaves.ts). The finalize step then reads
 * through the same TransferScanner and IndexerClient shapes and is served from this pass's batch. Whatever
 * the batch lacks (a root proved mid-pass, a payment whose scan failed) is asked for one payment at a time,
 * still mixed with decoys. The prefetch is best-effort and never throws: a failure here shows up, with its
 * reason code, in the finalize step of the payment concerned.
 */
import { zerc20VerifierAbi } from "@svc/scheme";
import type { Address, Hex, PublicClient } from "viem";
import type { ScanResult, ScanTarget, TransferScanner } from "./createTransferScanner.js";
import type { IndexerClient, TransferProof } from "./indexerClient.js";
import { mixProofLeaves } from "./mixProofLeaves.js";

/** The batched reads of one pass, and the scanner and indexer the finalize step reads through. */
export type FinalizePrefetch = {
  /** Scans `targets` and fetches all their paths in one request; replaces the previous pass's batch. */
  prefetch: (targets: readonly ScanTarget[]) => Promise<void>;
  transfers: TransferScanner;
  indexer: IndexerClient;
};

const key = (challengeNonce: Hex) => challengeNonce.toLowerCase();

/** Wraps the scanner and the indexer client with a per-pass batch. */
export function createFinalizePrefetch(params: {
  scanner: TransferScanner;
  indexer: IndexerClient;
  client: PublicClient;
  verifier: Address;
}): FinalizePrefetch {
  let scans = new Map<string, ScanResult>();
  let decoys: bigint[] = [];
  let batch: { targetIndex: bigint; byLeaf: Map<bigint, TransferProof> } | undefined;

  const mixedProofs = (targetIndex: bigint, own: readonly bigint[]) => params.indexer.proofs(targetIndex, mixProofLeaves(own, decoys, targetIndex));

  return {
    prefetch: async (targets) => {
      scans = new Map();
      decoys = [];
      batch = undefined;
      if (targets.length === 0) return params.scanner.retain?.(targets).catch(() => undefined);
      for (const target of targets) {
        const scan = await params.scanner.transfersTo(target).catch(() => undefined);
        if (scan !== undefined) scans.set(key(target.challenge.challengeNonce), scan);
      }
      // The scanner's shared cache keeps only the blocks this pass's payments still need.
      await params.scanner.retain?.(targets).catch(() => undefined);
      decoys = [...scans.values()].flatMap((scan) => scan.others.map((transfer) => transfer.event_index));
      const targetIndex = await params.client
        .readContract({ address: params.verifier, abi: zerc20VerifierAbi, functionName: "latestProvedIndex" })
        .catch(() => undefined);
      if (targetIndex === undefined) return;
      const own = [...new Set([...scans.values()].flatMap((scan) => scan.transfers.map((transfer) => transfer.event_index)))].filter(
        (leaf) => leaf < targetIndex,
      );
      if (own.length === 0) return;
      const answered = await mixedProofs(targetIndex, own).catch(() => undefined);
      if (answered !== undefined) batch = { targetIndex, byLeaf: new Map(answered.map((path) => [path.leaf_index, path])) };
    },
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
