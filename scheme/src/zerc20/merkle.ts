/**
 * The zERC20 transfer tree, the same in both versions: a Poseidon Merkle tree of height 40 whose leaves are the
 * version's transfer leaves (`Zerc20Protocol.transferLeaf`) in event-index order; empty positions hold 0.
 */
import { poseidon2 } from "poseidon-lite";

/** Height of the transfer tree. */
export const TRANSFER_TREE_HEIGHT = 40;

/** Parent node of two children. */
export function merkleNode(left: bigint, right: bigint): bigint {
  return poseidon2([left, right]);
}

let zeroCache: readonly bigint[] | undefined;

/** `zeroHashes()[level]` is the root of an empty subtree of that height (level 0 is the empty leaf, 0). */
export function zeroHashes(): readonly bigint[] {
  if (!zeroCache) {
    const zeros = [0n];
    for (let level = 0; level < TRANSFER_TREE_HEIGHT; level++) {
      const below = zeros[level] ?? 0n;
      zeros.push(merkleNode(below, below));
    }
    zeroCache = zeros;
  }
  return zeroCache;
}

/** Root of the empty height-40 tree: the verifier's proved root at index 0. */
export function emptyTreeRoot(): bigint {
  return zeroHashes()[TRANSFER_TREE_HEIGHT] ?? 0n;
}

/** Recomputes the root from a leaf, its index and its 40 siblings (bottom-up). */
export function merkleRootFromPath(leaf: bigint, leafIndex: bigint, siblings: readonly bigint[]): bigint {
  let node = leaf;
  let index = leafIndex;
  for (const sibling of siblings) {
    node = (index & 1n) === 0n ? merkleNode(node, sibling) : merkleNode(sibling, node);
    index >>= 1n;
  }
  return node;
}

/** Whether `siblings` prove `leaf` at `leafIndex` under `root`. */
export function verifyMerklePath(params: { leaf: bigint; leafIndex: bigint; siblings: readonly bigint[]; root: bigint }): boolean {
  if (params.siblings.length !== TRANSFER_TREE_HEIGHT) return false;
  return merkleRootFromPath(params.leaf, params.leafIndex, params.siblings) === params.root;
}
