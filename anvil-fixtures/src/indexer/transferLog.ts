/**
 * The indexer's view of one token: every IndexedTransfer in index order, the hash chain after each, and the
 * transfer tree over them, both computed with the protocol version's formulas (v2 leaves and hash chain
 * include `from`). Fed by {@link syncTransferLog}; read by the HTTP routes and the root job.
 */
import type { Zerc20Protocol } from "@svc/scheme";
import type { Address } from "viem";
import { TransferTree } from "./transferTree.js";

/** One IndexedTransfer as the chain emitted it. */
export type IndexedTransferEvent = {
  index: number;
  from: Address;
  to: Address;
  value: bigint;
  blockNumber: bigint;
};

/** Transfers of one token, with their tree and hash chain. */
export class TransferLog {
  readonly events: IndexedTransferEvent[] = [];
  readonly tree = new TransferTree();
  /** `hashChains[n]` is the hash chain after the first `n` transfers. */
  private readonly hashChains: bigint[] = [0n];
  /** Proved transfer roots seen on the verifier, root -> tree index. */
  readonly provedRoots = new Map<bigint, number>();
  /** Highest tree index with a proved root. */
  latestProvedIndex = 0;
  /** The verifier's `latestReservedIndex` as of the last sync; `undefined` before the first. */
  reservedIndex: number | undefined;
  /** Next block to read logs from. */
  nextBlock = 0n;

  /** @param protocol The version whose leaf and hash chain formulas the token uses. */
  constructor(readonly protocol: Zerc20Protocol) {}

  /** Number of transfers synced. */
  get size(): number {
    return this.events.length;
  }

  /** Appends the next transfer; events must arrive in index order with no gap. */
  append(event: IndexedTransferEvent): void {
    if (event.index !== this.size) {
      throw new RangeError(`IndexedTransfer ${event.index} arrived while expecting ${this.size}`);
    }
    this.events.push(event);
    this.tree.append(this.protocol.transferLeaf(event));
    this.hashChains.push(this.protocol.nextHashChain(this.hashChainAt(this.size - 1), event));
  }

  /** Records a root the verifier accepted for the first `index` transfers. */
  recordProvedRoot(index: number, root: bigint): void {
    this.provedRoots.set(root, index);
    this.latestProvedIndex = Math.max(this.latestProvedIndex, index);
  }

  /** The hash chain after the first `count` transfers. */
  hashChainAt(count: number): bigint {
    const value = this.hashChains[count];
    if (value === undefined) throw new RangeError(`hash chain ${count} is beyond the ${this.size} synced transfers`);
    return value;
  }
}
