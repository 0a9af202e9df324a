/**
 * Finds the transfers to a burn address on the facilitator's own RPC rather than by asking the indexer
 * `to=<burn address>`: it reads every `IndexedTransfer` of the token over a block range and matches the
 * burn address locally, so neither the indexer nor the RPC learns which address is about to be minted (the
 * event's `to` is not indexed, so a log filter could not name it anyway).
 *
 * A payment's range starts at the first block stamped no earlier than {@link ISSUANCE_SLACK_SECONDS} before
 * the challenge was issued: a burn address is fresh per challenge and nobody knows it before its offer, so no
 * transfer to it can come earlier, while one a payer sent before settling (a self-transfer paid in parts) is
 * still covered. That block is found once per payment by bisecting block timestamps and kept in memory; it
 * is never after the accepted burn's block, so the burn itself is always in range.
 *
 * Every payment reads from one shared, in-process cache of decoded transfers covering a contiguous block
 * window: a lookup fetches only the blocks past the window's end (plus a re-read tail, for reorgs; also when
 * the head kept its height but changed its hash) and, when a payment starts before the window, just that
 * earlier gap. Re-reading and decoding every payment's whole range
 * on every finalize pass cost one getLogs per payment per pass and, on a busy token, most of the process's CPU.
 * {@link TransferScanner.retain} drops blocks no payment still being finalized needs, so memory stays bounded.
 *
 * Each lookup also returns the payment's decoy candidates (decoyCandidates.ts): every transfer of the same
 * value as one of the burn address's that passes for a payment burn, from a window of blocks placed at random
 * around the accepted burn (drawn once per payment and kept, so repeated lookups offer the same decoys). The
 * cache reads that window too, which may start before the payment's own range.
 */
import { randomInt } from "node:crypto";
import { zerc20TokenAbi } from "@svc/scheme";
import type { Address, Hex, PublicClient } from "viem";

import type { ChallengeRecord } from "../challenges/challengeRecord.js";
import { type BlockWindow, decoyWindow, qualifiedDecoys } from "./decoyCandidates.js";

/** How far before the challenge's `issuedAt` the scan starts, for clock skew between the facilitator and block timestamps. */
export const ISSUANCE_SLACK_SECONDS = 120n;

/** Blocks per `eth_getLogs` request: below the range limit common RPC providers enforce. */
export const SCAN_CHUNK_BLOCKS = 2_000n;

/** Blocks below the cached head read again whenever the head moves, so a reorged tail is replaced rather than kept. */
export const REORG_DEPTH_BLOCKS = 12n;

/**
 * Most decoy candidates returned per value and lookup, drawn at random from all that qualify: a request needs
 * three per real leaf (mixProofLeaves.ts), the rest leave room for several payments of one value.
 */
export const DECOY_CANDIDATES_PER_VALUE = 64;

/** One `IndexedTransfer` as read from the chain. */
export type ScannedTransfer = { event_index: bigint; from: Address; to: Address; value: bigint; eth_block_number: bigint };

/**
 * What the scanner needs of an accepted payment: which burn address, since when, the block its burn landed in,
 * and the treasury it is minted to (whose transfers never serve as decoys).
 */
export type ScanTarget = { challenge: Pick<ChallengeRecord, "challengeNonce" | "payTo" | "issuedAt">; burnBlockNumber: string; treasury: Address };

/** The transfers a burn address received, and a random sample of its decoy candidates (decoyCandidates.ts). */
export type ScanResult = { transfers: ScannedTransfer[]; others: ScannedTransfer[] };

/** The contiguous blocks the transfer cache covers, and the hash of the head when its end was last read. */
type CachedWindow = { from: bigint; to: bigint; toHash?: Hex | undefined };

/** Scans the token's transfers for burn addresses. */
export type TransferScanner = {
  transfersTo: (target: ScanTarget) => Promise<ScanResult>;
  /** Drops cached blocks before the earliest known start of `targets` (all of them when there are none). */
  retain?: (targets: readonly ScanTarget[]) => Promise<void>;
};

/** Creates a scanner over `token` on `client` with one transfer cache shared by all payments; start blocks are cached for the process's life. */
export function createTransferScanner(params: {
  client: PublicClient;
  token: Address;
  chunkBlocks?: bigint;
  /** Draws an integer in [0, n): where decoy windows sit and which candidates are sampled (tests pin it). */
  draw?: (below: number) => number;
  /**
   * Whether results carry decoy candidates (`others`), read from each payment's decoy window. Default true;
   * false when paths come from our own follower, which nobody else sees: no window before the burn is read.
   */
  decoys?: boolean;
  /** Blocks in each payment's decoy window. Default `DECOY_WINDOW_BLOCKS` (decoyCandidates.ts). */
  decoyWindowBlocks?: bigint;
}): TransferScanner {
  const { client, token } = params;
  const withDecoys = params.decoys ?? true;
  const chunk = params.chunkBlocks ?? SCAN_CHUNK_BLOCKS;
  const draw = params.draw ?? randomInt;
  const startBlocks = new Map<string, bigint>();
  const decoyWindows = new Map<string, BlockWindow>();
  // The cache: the transfers of each block of [window.from, window.to] that has any, and the same transfers
  // by lowercased recipient keyed by event index, so a re-read block replaces its entries instead of adding.
  // `toHash` is the hash the head had when the window's end was last read: a head at the same height with
  // another hash is a reorg that kept the chain's height, and the tail is read again.
  let window: CachedWindow | undefined;
  const blocks = new Map<bigint, ScannedTransfer[]>();
  const byRecipient = new Map<string, Map<bigint, ScannedTransfer>>();
  // Reads and prunes run one at a time so the window always describes what the maps hold.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(run: () => Promise<T>): Promise<T> => {
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  };

  const forgetBlock = (blockNumber: bigint) => {
    for (const transfer of blocks.get(blockNumber) ?? []) byRecipient.get(transfer.to.toLowerCase())?.delete(transfer.event_index);
    blocks.delete(blockNumber);
  };

  // Reads [from, to] in chunks and replaces every block of each chunk, so a block read twice is never doubled.
  const read = async (from: bigint, to: bigint, chunkDone: (chunkFrom: bigint, chunkTo: bigint) => void, descending = false) => {
    const starts: bigint[] = [];
    for (let start = from; start <= to; start += chunk) starts.push(start);
    if (descending) starts.reverse();
    for (const start of starts) {
      const end = start + chunk - 1n < to ? start + chunk - 1n : to;
      const logs = await client.getContractEvents({
        address: token,
        abi: zerc20TokenAbi,
        eventName: "IndexedTransfer",
        fromBlock: start,
        toBlock: end,
        strict: true,
      });
      for (let blockNumber = start; blockNumber <= end; blockNumber++) forgetBlock(blockNumber);
      for (const log of logs) {
        const transfer = { event_index: log.args.index, from: log.args.from, to: log.args.to, value: log.args.value, eth_block_number: log.blockNumber };
        blocks.set(log.blockNumber, [...(blocks.get(log.blockNumber) ?? []), transfer]);
        const recipient = transfer.to.toLowerCase();
        const received = byRecipient.get(recipient) ?? new Map<bigint, ScannedTransfer>();
        byRecipient.set(recipient, received.set(transfer.event_index, transfer));
      }
      chunkDone(start, end);
    }
  };

  // Extends the window to cover [start, head]: an earlier gap, then the new tail with its re-read overlap.
  const cover = async (start: bigint, head: { number: bigint; hash: Hex }) => {
    if (window === undefined) {
      const fresh: CachedWindow = { from: start, to: start - 1n };
      window = fresh;
      await read(start, head.number, (_, chunkTo) => {
        fresh.to = chunkTo;
      });
      fresh.toHash = head.hash;
      return;
    }
    const current = window;
    if (start < current.from)
      await read(
        start,
        current.from - 1n,
        (chunkFrom) => {
          current.from = chunkFrom;
        },
        true,
      );
    if (head.number === current.to && head.hash === current.toHash) return;
    for (const blockNumber of [...blocks.keys()]) if (blockNumber > head.number) forgetBlock(blockNumber);
    const lastKept = head.number < current.to ? head.number : current.to;
    const overlap = lastKept - REORG_DEPTH_BLOCKS + 1n;
    const from = overlap > current.from ? overlap : current.from;
    current.to = from - 1n;
    current.toHash = undefined;
    await read(from, head.number, (_, chunkTo) => {
      current.to = chunkTo;
    });
    current.toHash = head.hash;
  };

  const startBlock = async (target: ScanTarget): Promise<bigint> => {
    const key = target.challenge.challengeNonce.toLowerCase();
    const known = startBlocks.get(key);
    if (known !== undefined) return known;
    const found = await firstBlockFrom(client, BigInt(target.challenge.issuedAt) - ISSUANCE_SLACK_SECONDS, BigInt(target.burnBlockNumber));
    startBlocks.set(key, found);
    return found;
  };

  const windowOf = (target: ScanTarget): BlockWindow => {
    const key = target.challenge.challengeNonce.toLowerCase();
    const known = decoyWindows.get(key);
    if (known !== undefined) return known;
    const drawn = decoyWindow(BigInt(target.burnBlockNumber), params.decoyWindowBlocks, draw);
    decoyWindows.set(key, drawn);
    return drawn;
  };

  // The payment's decoy candidates: qualified transfers of its values in its window, at most a sample per value.
  const decoysOf = (target: ScanTarget, transfers: readonly ScannedTransfer[], head: bigint): ScannedTransfer[] => {
    const decoys = windowOf(target);
    const senders = new Set<string>();
    for (const transfersOfBlock of blocks.values()) for (const transfer of transfersOfBlock) senders.add(transfer.from.toLowerCase());
    const inWindow = function* () {
      for (const [blockNumber, transfersOfBlock] of blocks)
        if (blockNumber >= decoys.from && blockNumber <= decoys.to && blockNumber <= head) yield* transfersOfBlock;
    };
    const values = new Set(transfers.map((transfer) => transfer.value));
    const byValue = new Map<bigint, ScannedTransfer[]>();
    for (const candidate of qualifiedDecoys(inWindow(), values, senders, { payTo: target.challenge.payTo, ours: [target.treasury] })) {
      byValue.set(candidate.value, [...(byValue.get(candidate.value) ?? []), candidate]);
    }
    return [...byValue.values()].flatMap((candidates) => sample(candidates, DECOY_CANDIDATES_PER_VALUE, draw));
  };

  return {
    transfersTo: async (target) => {
      // The head block itself, not a cached number: an older head would read as a reorg and drop blocks
      // still valid, and only its hash tells a reorg that kept the height from no change.
      const [fromBlock, latest] = await Promise.all([startBlock(target), client.getBlock({ blockTag: "latest", includeTransactions: false })]);
      const head = { number: latest.number, hash: latest.hash };
      const decoysFrom = withDecoys ? windowOf(target).from : fromBlock;
      return serially(async () => {
        await cover(decoysFrom < fromBlock ? decoysFrom : fromBlock, head);
        const inRange = (transfer: ScannedTransfer) => transfer.eth_block_number >= fromBlock && transfer.eth_block_number <= head.number;
        const transfers = [...(byRecipient.get(target.challenge.payTo.toLowerCase())?.values() ?? [])]
          .filter(inRange)
          .sort((a, b) => (a.event_index < b.event_index ? -1 : a.event_index > b.event_index ? 1 : 0));
        return { transfers, others: withDecoys ? decoysOf(target, transfers, head.number) : [] };
      });
    },
    retain: (targets) =>
      serially(async () => {
        // A payment needs its blocks from its own start or its decoy window's, whichever is earlier.
        const starts = targets.flatMap((target) => {
          const key = target.challenge.challengeNonce.toLowerCase();
          const start = startBlocks.get(key);
          const decoysFrom = decoyWindows.get(key)?.from;
          if (start === undefined || decoysFrom === undefined) return start ?? decoysFrom ?? [];
          return decoysFrom < start ? decoysFrom : start;
        });
        if (window === undefined) return;
        if (starts.length === 0 && targets.length === 0) {
          for (const blockNumber of [...blocks.keys()]) forgetBlock(blockNumber);
          window = undefined;
          return;
        }
        // A target whose start is not known yet extends the window again when it is looked up.
        const earliest = starts.reduce((low, start) => (start < low ? start : low), window.to + 1n);
        if (earliest <= window.from) return;
        for (const blockNumber of [...blocks.keys()]) if (blockNumber < earliest) forgetBlock(blockNumber);
        window.from = earliest;
        if (window.from > window.to) window = undefined;
      }),
  };
}

/** At most `limit` of `items`, drawn without replacement by `draw`; all of them when there are no more. */
function sample<T>(items: readonly T[], limit: number, draw: (below: number) => number): T[] {
  if (items.length <= limit) return [...items];
  const pool = [...items];
  const picked: T[] = [];
  while (picked.length < limit) picked.push(...pool.splice(draw(pool.length), 1));
  return picked;
}

/** The first block stamped at or after `timestamp`, and `upTo` when none up to it is: timestamps never decrease. */
async function firstBlockFrom(client: PublicClient, timestamp: bigint, upTo: bigint): Promise<bigint> {
  const stamp = async (blockNumber: bigint) => (await client.getBlock({ blockNumber })).timestamp;
  // Invariant: the answer lies in [low, high].
  let low = 0n;
  let high = upTo;
  while (low < high) {
    const middle = (low + high) / 2n;
    if ((await stamp(middle)) < timestamp) low = middle + 1n;
    else high = middle;
  }
  return low;
}
