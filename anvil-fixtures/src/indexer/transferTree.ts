/**
 * Append-only Poseidon transfer tree that can answer for any prefix of its leaves: the indexer serves roots
 * and Merkle paths for the tree as it stood at a proved index, while new transfers keep arriving.
 */
import { merkleNode, TRANSFER_TREE_HEIGHT, zeroHashes } from "@svc/scheme";

/** The tree of every transfer leaf seen so far. */
export class TransferTree {
  /** `levels[l][i]` is the node at height `l` over the leaves appended so far (zeros beyond them). */
  private readonly levels: bigint[][] = Array.from({ length: TRANSFER_TREE_HEIGHT + 1 }, () => []);

  /** Number of leaves appended. */
  get size(): number {
    return this.levels[0]?.length ?? 0;
  }

  /** Appends one leaf and updates its 40 ancestors. */
  append(leaf: bigint): void {
    const zeros = zeroHashes();
    let index = this.size;
    this.level(0)[index] = leaf;
    for (let height = 1; height <= TRANSFER_TREE_HEIGHT; height++) {
      const below = this.level(height - 1);
      const left = index - (index % 2);
      const node = merkleNode(below[left] ?? zeros[height - 1]!, below[left + 1] ?? zeros[height - 1]!);
      index = Math.floor(index / 2);
      this.level(height)[index] = node;
    }
  }

  /** Root of the tree made of the first `count` leaves. */
  rootAt(count: number): bigint {
    this.assertCount(count);
    return this.prefixNode(TRANSFER_TREE_HEIGHT, 0, count);
  }

  /** The 40 siblings (bottom-up) of `leafIndex` in the tree of the first `count` leaves. */
  pathAt(count: number, leafIndex: number): bigint[] {
    this.assertCount(count);
    if (!Number.isInteger(leafIndex) || leafIndex < 0 || leafIndex >= count) {
      throw new RangeError(`leaf ${leafIndex} is not below the tree index ${count}`);
    }
    const siblings: bigint[] = [];
    for (let height = 0; height < TRANSFER_TREE_HEIGHT; height++) {
      siblings.push(this.prefixNode(height, Math.floor(leafIndex / 2 ** height) ^ 1, count));
    }
    return siblings;
  }

  private prefixNode(height: number, index: number, count: number): bigint {
    const width = 2 ** height;
    const first = index * width;
    if (first >= count) return zeroHashes()[height]!;
    if (first + width <= count || count === this.size) return this.level(height)[index] ?? zeroHashes()[height]!;
    return merkleNode(this.prefixNode(height - 1, index * 2, count), this.prefixNode(height - 1, index * 2 + 1, count));
  }

  private level(height: number): bigint[] {
    const level = this.levels[height];
    if (!level) throw new RangeError(`no tree level ${height}`);
    return level;
  }

  private assertCount(count: number): void {
    if (!Number.isInteger(count) || count < 0 || count > this.size) {
      throw new RangeError(`tree index ${count} is beyond the ${this.size} synced leaves`);
    }
  }
}
