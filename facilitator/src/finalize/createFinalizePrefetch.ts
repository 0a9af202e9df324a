/**
 * A pass's indexer reads, batched: before a finalize pass mints, the transfers of every payment it is about
 * to mint are scanned once and all their Merkle paths are fetched in one `/proofs` request, each own leaf
 * mixed with decoys of its value that pass for payment burns (decoyCandidates.ts, mixProofLeaves.ts). An own
 * leaf with fewer than three such decoys is still fetched, and reported (`decoysShort`). The finalize step then reads
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
import { type ChosenDecoys, type DecoyShortfall, splitProofRequests, type ValuedLeaf } from "./mixProofLeaves.js";

/**
 * What a prefetch did: whether it sent `/proofs` (the pass then spreads its mints after it), and every own
 * leaf since the previous prefetch that went to the indexer with fewer decoys than wanted (this batch's, and
 * those of the single-payment requests of the pass before).
 */
export type PrefetchReport = { requested: boolean; decoysShort: DecoyShortfall[] };

/** The batched reads of one pass, and the scanner and indexer the finalize step reads through. */
export type FinalizePrefetch = {
  /** Scans `targets` and fetches all their paths in one request; replaces the previous pass's batch. */
  prefetch: (targets: readonly ScanTarget[]) => Promise<PrefetchReport>;
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
  /**
   * Whether the paths come from an indexer that must not single out our leaves (the default). `false` when our
   * own follower answers (`witnesses = "self"`): nobody else sees the request, so it asks for our leaves alone,
   * reports no shortfall and no request, and the loop adds no lead before the mints.
   */
  decoys?: boolean;
}): FinalizePrefetch {
  const decoys = params.decoys ?? true;
  let scans = new Map<string, ScanResult>();
  // Decoys kept per own leaf while it waits (mixProofLeaves.ts); pruned to the leaves of each new pass.
  let chosen: ChosenDecoys = new Map();
  let shortfalls: DecoyShortfall[] = [];
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

  // Every scanned own leaf with its value, and every scanned payment's decoy candidates.
  const ownLeaves = () => new Map([...scans.values()].flatMap((scan) => scan.transfers.map((transfer) => [transfer.event_index, transfer.value] as const)));
  const candidates = (): ValuedLeaf[] =>
    [...scans.values()].flatMap((scan) => scan.others.map((transfer) => ({ leaf: transfer.event_index, value: transfer.value })));

  // Split to the indexer's per-request cap, each own leaf with its decoys; a leaf of unknown value (no transfer
  // has a negative one) gets none.
  const mixedProofs = async (targetIndex: bigint, own: readonly bigint[]) => {
    if (!decoys) return params.indexer.proofs(targetIndex, own);
    const values = ownLeaves();
    const requests = splitProofRequests(
      own.map((leaf) => ({ leaf, value: values.get(leaf) ?? -1n })),
      candidates(),
      targetIndex,
      { chosen },
    );
    for (const request of requests) shortfalls.push(...request.shortfalls);
    const answers = await Promise.all(requests.map((request) => params.indexer.proofs(targetIndex, request.leaves)));
    return answers.flat();
  };

  return {
    prefetch: async (targets) => {
      const report = (requested: boolean): PrefetchReport => {
        const decoysShort = shortfalls;
        shortfalls = [];
        return { requested, decoysShort };
      };
      scans = new Map();
      batch = undefined;
      passIndex = await readProvedIndex().catch(() => undefined);
      // A wait at an index the pass no longer reads is over (a root was proved since): that payment is read again.
      // A payment this pass did not lease keeps its wait: with more payments waiting than a pass leases, the
      // queue hands each pass a different batch, and forgetting the others would re-read them all every pass.
      if (passIndex !== undefined) for (const [waiter, index] of waitingAt) if (index !== passIndex) waitingAt.delete(waiter);
      if (targets.length === 0) {
        chosen = new Map();
        await params.scanner.retain?.(targets).catch(() => undefined);
        return report(false);
      }
      for (const target of targets) {
        if (rootWait.unchanged(target.challenge.challengeNonce)) continue;
        const scan = await params.scanner.transfersTo(target).catch(() => undefined);
        if (scan !== undefined) scans.set(key(target.challenge.challengeNonce), scan);
      }
      // The scanner's shared cache keeps only the blocks this pass's payments still need.
      await params.scanner.retain?.(targets).catch(() => undefined);
      const scanned = ownLeaves();
      chosen = new Map([...chosen].filter(([leaf]) => scanned.has(leaf)));
      const targetIndex = passIndex;
      if (targetIndex === undefined) return report(false);
      const own = [...scanned.keys()].filter((leaf) => leaf < targetIndex);
      if (own.length === 0) return report(false);
      const answered = await mixedProofs(targetIndex, own).catch(() => undefined);
      if (answered !== undefined) batch = { targetIndex, byLeaf: new Map(answered.map((path) => [path.leaf_index, path])) };
      return report(decoys);
    },
    rootWait,
    provedIndex: async () => passIndex ?? (await readProvedIndex()),
    transfers: {
      transfersTo: async (target) => {
        const known = scans.get(key(target.challenge.challengeNonce));
        if (known !== undefined) return known;
        // Kept for the pass, so a single-payment `/proofs` request knows the values and decoys of its leaves.
        const scan = await params.scanner.transfersTo(target);
        scans.set(key(target.challenge.challengeNonce), scan);
        return scan;
      },
    },
    indexer: {
      proofs: async (targetIndex, leafIndices) => {
        const served = batch?.targetIndex === targetIndex ? leafIndices.flatMap((leaf) => batch?.byLeaf.get(leaf) ?? []) : [];
        return served.length === leafIndices.length ? served : mixedProofs(targetIndex, leafIndices);
      },
    },
  };
}
