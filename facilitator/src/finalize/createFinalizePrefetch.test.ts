/**
 * The prefetch with the real transfer scanner over an in-memory chain: one `/proofs` request for every
 * payment due carries each real leaf with at least three decoys of its value, none of them a mint, a
 * treasury sweep, a funding transfer or another value; when the chain has too few, the leaf still goes and
 * the shortfall is reported.
 */
import { type Address, type Hex, type PublicClient, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { createFinalizePrefetch } from "./createFinalizePrefetch.js";
import { createTransferScanner, type ScannedTransfer, type ScanTarget } from "./createTransferScanner.js";
import type { TransferProof } from "./indexerClient.js";
import { DECOY_LEAVES } from "./mixProofLeaves.js";

const address = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`;
const TREASURY = address(0x7ea5);
const HEAD = 600n;
const stamp = (block: bigint) => 10_000n + block;

/** A chain of `IndexedTransfer`s, one block per second, answering what the scanner and the prefetch read. */
function chainOf(transfers: readonly Omit<ScannedTransfer, "event_index">[], provedIndex: bigint): { client: PublicClient; leaves: ScannedTransfer[] } {
  const leaves = transfers.map((transfer, index) => ({ ...transfer, event_index: BigInt(index) }));
  const client = {
    getBlock: async (query: { blockTag?: string; blockNumber?: bigint }) =>
      query.blockNumber === undefined ? { number: HEAD, hash: `0x${"ab".repeat(32)}` as Hex } : { timestamp: stamp(query.blockNumber) },
    getContractEvents: async ({ fromBlock, toBlock }: { fromBlock: bigint; toBlock: bigint }) =>
      leaves
        .filter((leaf) => leaf.eth_block_number >= fromBlock && leaf.eth_block_number <= toBlock)
        .map((leaf) => ({ args: { from: leaf.from, to: leaf.to, value: leaf.value, index: leaf.event_index }, blockNumber: leaf.eth_block_number })),
    readContract: async () => provedIndex,
  } as unknown as PublicClient;
  return { client, leaves };
}

/** An indexer that records every request and answers a path per leaf. */
function recordingIndexer() {
  const requests: bigint[][] = [];
  return {
    requests,
    indexer: {
      proofs: async (targetIndex: bigint, leafIndices: readonly bigint[]) => {
        requests.push([...leafIndices]);
        return leafIndices.map(
          (leaf) => ({ target_index: targetIndex, leaf_index: leaf, root: 1n, hash_chain: 0n, siblings: Array(40).fill(0n) }) as unknown as TransferProof,
        );
      },
    },
  };
}

const target = (n: number, payTo: Address, burnBlock: bigint): ScanTarget => ({
  challenge: { challengeNonce: `0x${n.toString(16).padStart(64, "0")}`, payTo, issuedAt: Number(stamp(burnBlock - 10n)) },
  burnBlockNumber: burnBlock.toString(),
  treasury: TREASURY,
});

// Decoy windows reaching back from the burn: on this short chain they cover every block, whatever the placement.
const windowBack = (below: number) => below - 1;

const transfer = (block: bigint, from: Address, to: Address, value: bigint) => ({ from, to, value, eth_block_number: block });

describe("createFinalizePrefetch", () => {
  it("sends one /proofs request for several due payments, each real leaf with three qualified decoys of its value", async () => {
    const burnA = address(0xb0a);
    const burnB = address(0xb0b);
    const payer = address(0xa1);
    const funded = address(0xa2);
    const otherBurns = (value: bigint, first: number, count: number, startBlock: bigint) =>
      Array.from({ length: count }, (_, n) => transfer(startBlock + BigInt(n * 37), payer, address(first + n), value));
    const { client, leaves } = chainOf(
      [
        ...otherBurns(500n, 0xc00, 5, 20n),
        ...otherBurns(700n, 0xd00, 4, 400n),
        transfer(100n, zeroAddress, TREASURY, 500n), // a mint to the treasury
        transfer(110n, zeroAddress, TREASURY, 700n),
        transfer(120n, TREASURY, address(0xfee), 500n), // a fee sweep
        transfer(130n, address(0xde), funded, 700n), // funding: the account spends later
        transfer(140n, funded, address(0xe00), 3n),
        transfer(150n, payer, address(0xe01), 501n), // another value
        transfer(300n, payer, burnA, 500n),
        transfer(320n, payer, burnB, 700n),
      ],
      1_000n,
    );
    const { indexer, requests } = recordingIndexer();
    const reads = createFinalizePrefetch({
      scanner: createTransferScanner({ client, token: address(0x70c), draw: windowBack }),
      indexer,
      client,
      verifier: address(0x7e1),
    });

    const report = await reads.prefetch([target(1, burnA, 300n), target(2, burnB, 320n)]);

    expect(report).toEqual({ requested: true, decoysShort: [] });
    expect(requests).toHaveLength(1);
    const byLeaf = new Map(leaves.map((leaf) => [leaf.event_index, leaf]));
    const sent = requests[0]!.map((leaf) => byLeaf.get(leaf)!);
    const real = sent.filter((leaf) => leaf.to === burnA || leaf.to === burnB);
    expect(real.map((leaf) => leaf.value).sort()).toEqual([500n, 700n]);
    for (const value of [500n, 700n]) {
      const decoys = sent.filter((leaf) => leaf.value === value && !real.includes(leaf));
      expect(decoys).toHaveLength(DECOY_LEAVES);
      // Every decoy is another payment burn: from a payer into an address that never spends.
      const burns = (value === 500n ? otherBurns(500n, 0xc00, 5, 20n) : otherBurns(700n, 0xd00, 4, 400n)).map((burn) => burn.to);
      for (const decoy of decoys) expect(decoy.from === payer && burns.includes(decoy.to)).toBe(true);
    }
    expect(sent).toHaveLength(2 * (1 + DECOY_LEAVES));
    // The finalize step is served from the batch: no second request.
    const own = real.map((leaf) => leaf.event_index);
    expect((await reads.indexer.proofs(1_000n, own)).map((path) => path.leaf_index)).toEqual(own);
    expect(requests).toHaveLength(1);
  });

  it("draws decoys only from the payment's window: one starting at the burn leaves out every earlier burn", async () => {
    const burn = address(0xb0d);
    const payer = address(0xa1);
    const earlier = [10n, 20n, 30n].map((block, n) => transfer(block, payer, address(0xc10 + n), 800n));
    const later = [310n, 320n].map((block, n) => transfer(block, payer, address(0xc20 + n), 800n));
    const { client } = chainOf([...earlier, transfer(300n, payer, burn, 800n), ...later], 1_000n);
    const { indexer, requests } = recordingIndexer();
    // Offset 0 in a 200-block window: it is [300, 499], so only the two later burns are in it.
    const scanner = createTransferScanner({ client, token: address(0x70c), draw: () => 0, decoyWindowBlocks: 200n });
    const reads = createFinalizePrefetch({ scanner, indexer, client, verifier: address(0x7e1) });

    expect(await reads.prefetch([target(4, burn, 300n)])).toEqual({ requested: true, decoysShort: [{ wanted: DECOY_LEAVES, found: 2 }] });
    expect(requests).toEqual([[3n, 4n, 5n]]);
  });

  it("still fetches a leaf the chain has too few decoys for, and reports the shortfall without naming it", async () => {
    const burn = address(0xb0c);
    const payer = address(0xa1);
    const { client } = chainOf(
      [transfer(50n, payer, address(0xc01), 900n), transfer(60n, zeroAddress, TREASURY, 900n), transfer(300n, payer, burn, 900n)],
      1_000n,
    );
    const { indexer, requests } = recordingIndexer();
    const reads = createFinalizePrefetch({
      scanner: createTransferScanner({ client, token: address(0x70c), draw: windowBack }),
      indexer,
      client,
      verifier: address(0x7e1),
    });

    expect(await reads.prefetch([target(3, burn, 300n)])).toEqual({ requested: true, decoysShort: [{ wanted: DECOY_LEAVES, found: 1 }] });
    expect(requests).toEqual([[0n, 2n]]);
    // Reported once: the next pass with nothing to fetch reports nothing.
    expect(await reads.prefetch([])).toEqual({ requested: false, decoysShort: [] });
  });

  it("asks our own follower (decoys off) for our leaves alone, with no shortfall and no request to lead mints", async () => {
    const burn = address(0xb0e);
    const payer = address(0xa1);
    const { client } = chainOf(
      [transfer(50n, payer, address(0xc01), 900n), transfer(60n, payer, address(0xc02), 900n), transfer(300n, payer, burn, 900n)],
      1_000n,
    );
    const { indexer, requests } = recordingIndexer();
    const reads = createFinalizePrefetch({
      scanner: createTransferScanner({ client, token: address(0x70c), draw: windowBack }),
      indexer,
      client,
      verifier: address(0x7e1),
      decoys: false,
    });

    expect(await reads.prefetch([target(5, burn, 300n)])).toEqual({ requested: false, decoysShort: [] });
    expect(requests).toEqual([[2n]]);
  });

  it("keeps a payment's wait for a root across a pass that did not lease it, and ends it once a root is proved", async () => {
    const burn = address(0xb0f);
    const payer = address(0xa1);
    let provedIndex = 1n;
    const { client: chain } = chainOf([transfer(50n, payer, address(0xc01), 900n), transfer(300n, payer, burn, 900n)], 0n);
    let scans = 0;
    const client = {
      ...chain,
      getBlock: (query: never) => {
        scans++;
        return chain.getBlock(query);
      },
      readContract: async () => provedIndex,
    } as unknown as PublicClient;
    const reads = createFinalizePrefetch({
      scanner: createTransferScanner({ client, token: address(0x70c), draw: windowBack }),
      indexer: recordingIndexer().indexer,
      client,
      verifier: address(0x7e1),
      decoys: false,
    });
    const waiting = target(6, burn, 300n);
    const other = target(7, address(0xb10), 300n);
    await reads.prefetch([waiting]);
    reads.rootWait.waiting(waiting.challenge.challengeNonce, 1n);

    // A pass that leased another payment, then one that leases this one again: still waiting at index 1.
    await reads.prefetch([other]);
    expect(reads.rootWait.unchanged(waiting.challenge.challengeNonce)).toBe(true);
    const before = scans;
    await reads.prefetch([waiting]);
    expect(scans).toBe(before);
    expect(reads.rootWait.unchanged(waiting.challenge.challengeNonce)).toBe(true);

    // A root is proved: the wait is over and the payment is read again.
    provedIndex = 2n;
    await reads.prefetch([waiting]);
    expect(reads.rootWait.unchanged(waiting.challenge.challengeNonce)).toBe(false);
    expect(scans).toBeGreaterThan(before);
  });
});
