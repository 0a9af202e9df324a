/**
 * Finds the transfers to a burn address on the facilitator's own RPC rather than by asking the indexer
 * `to=<burn address>`: it reads every `IndexedTransfer` of the token over a block range and matches the
 * burn address locally, so neither the indexer nor the RPC learns which address is about to be minted (the
 * event's `to` is not indexed, so a log filter could not name it anyway).
 *
 * The range starts at the first block stamped no earlier than {@link ISSUANCE_SLACK_SECONDS} before the
 * challenge was issued: a burn address is fresh per challenge and nobody knows it before its offer, so no
 * transfer to it can come earlier, while one a payer sent before settling (a self-transfer paid in parts) is
 * still covered. That block is found once per payment by bisecting block timestamps and kept in memory; it
 * is never after the accepted burn's block, so the burn itself is always in range.
 */
import { zerc20TokenAbi } from "@svc/scheme";
import { isAddressEqual, type Address, type Hex, type PublicClient } from "viem";

/** How far before the challenge's `issuedAt` the scan starts, for clock skew between the facilitator and block timestamps. */
export const ISSUANCE_SLACK_SECONDS = 120n;

/** Blocks per `eth_getLogs` request: below the range limit common RPC providers enforce. */
export const SCAN_CHUNK_BLOCKS = 2_000n;

/** One `IndexedTransfer` as read from the chain. */
export type ScannedTransfer = { event_index: bigint; from: Address; to: Address; value: bigint; eth_block_number: bigint };

/** What the scanner needs of an accepted payment. */
export type ScanTarget = { challenge: { challengeNonce: Hex; payTo: Address; issuedAt: number }; burnBlockNumber: string };

/** The transfers a burn address received, and every other transfer of the scanned range (decoy candidates). */
export type ScanResult = { transfers: ScannedTransfer[]; others: ScannedTransfer[] };

/** Scans the token's transfers for burn addresses. */
export type TransferScanner = { transfersTo: (target: ScanTarget) => Promise<ScanResult> };

/** Creates a scanner over `token` on `client`; the start block of each payment is cached for the process's life. */
export function createTransferScanner(params: { client: PublicClient; token: Address; chunkBlocks?: bigint }): TransferScanner {
  const { client, token } = params;
  const chunk = params.chunkBlocks ?? SCAN_CHUNK_BLOCKS;
  const startBlocks = new Map<string, bigint>();

  const startBlock = async (target: ScanTarget): Promise<bigint> => {
    const key = target.challenge.challengeNonce.toLowerCase();
    const known = startBlocks.get(key);
    if (known !== undefined) return known;
    const found = await firstBlockFrom(client, BigInt(target.challenge.issuedAt) - ISSUANCE_SLACK_SECONDS, BigInt(target.burnBlockNumber));
    startBlocks.set(key, found);
    return found;
  };

  return {
    transfersTo: async (target) => {
      const [fromBlock, head] = await Promise.all([startBlock(target), client.getBlockNumber()]);
      const scanned: ScannedTransfer[] = [];
      for (let from = fromBlock; from <= head; from += chunk) {
        const to = from + chunk - 1n < head ? from + chunk - 1n : head;
        const logs = await client.getContractEvents({
          address: token,
          abi: zerc20TokenAbi,
          eventName: "IndexedTransfer",
          fromBlock: from,
          toBlock: to,
          strict: true,
        });
        for (const log of logs) {
          scanned.push({ event_index: log.args.index, from: log.args.from, to: log.args.to, value: log.args.value, eth_block_number: log.blockNumber });
        }
      }
      const mine = (transfer: ScannedTransfer) => isAddressEqual(transfer.to, target.challenge.payTo);
      return { transfers: scanned.filter(mine), others: scanned.filter((transfer) => !mine(transfer)) };
    },
  };
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
