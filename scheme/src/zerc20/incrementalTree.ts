/**
 * The transfer tree (merkle.ts) grown one leaf at a time, with authentication paths kept only for the leaves a
 * caller tracks: the incremental-witness technique wallets use for note commitments. The tree itself is its
 * left frontier (one complete node per level), so an append costs O(height) hashes and memory stays O(height)
 * however many leaves the tree holds; each tracked leaf adds one path of {@link TRANSFER_TREE_HEIGHT} siblings.
 *
 * A tracked path's left siblings are complete when the leaf is appended (they are the frontier then); each right
 * sibling is the subtree that later leaves fill. Leaves arrive in order, so a new leaf at `i` lies in exactly one
 * right sibling of a tracked leaf `t < i` (the level where `t` and `i` first share an ancestor), and that
 * sibling's value is `i`'s partly filled ancestor at that level: one assignment per tracked leaf per append,
 * after computing `i`'s ancestors once up to the highest level any tracked path needs.
 */
import { merkleNode, TRANSFER_TREE_HEIGHT, zeroHashes } from "./merkle.js";

/** A tracked leaf and its path under the tree as it stands. */
export type TrackedPath = { leafIndex: bigint; leaf: bigint; siblings: bigint[] };

/** Everything the tree needs to continue where it stopped (plain values: the caller persists them). */
export type IncrementalTreeState = {
  /** Leaves appended so far: the next leaf's index, and the tree index of the current root. */
  size: bigint;
  /** `frontier[level]`: the last complete left node of that level (meaningful where bit `level` of `size` is 1). */
  frontier: bigint[];
  tracked: TrackedPath[];
};

/** An append-only transfer tree. */
export type IncrementalTree = {
  /** Appends `leaf` at index `size`; with `track`, keeps its path from now on. */
  append: (leaf: bigint, options?: { track?: boolean }) => void;
  size: () => bigint;
  /** The root of the first `size` leaves (the verifier's proved root at tree index `size`). */
  root: () => bigint;
  /** The tracked leaf at `leafIndex` and its path under {@link IncrementalTree.root}; `undefined` when untracked. */
  path: (leafIndex: bigint) => TrackedPath | undefined;
  /** How many paths are kept. */
  trackedCount: () => number;
  /** Stops keeping the path of `leafIndex` (a minted payment's leaf). */
  untrack: (leafIndex: bigint) => void;
  /** A copy of the state, for persistence. */
  state: () => IncrementalTreeState;
};

/** The empty tree. */
export function emptyIncrementalTreeState(): IncrementalTreeState {
  return { size: 0n, frontier: zeroHashes().slice(0, TRANSFER_TREE_HEIGHT), tracked: [] };
}

const copyPath = (path: TrackedPath): TrackedPath => ({ leafIndex: path.leafIndex, leaf: path.leaf, siblings: [...path.siblings] });

/** The level at which leaves `a` and `b` (a ≠ b) are children of sibling nodes. */
function meetingLevel(a: bigint, b: bigint): number {
  return (a ^ b).toString(2).length - 1;
}

/** Continues the tree from `state` (the empty tree by default); the state is copied, never shared. */
export function createIncrementalTree(state: IncrementalTreeState = emptyIncrementalTreeState()): IncrementalTree {
  if (state.frontier.length !== TRANSFER_TREE_HEIGHT) throw new RangeError(`a frontier has ${TRANSFER_TREE_HEIGHT} levels`);
  const zeros = zeroHashes();
  const capacity = 1n << BigInt(TRANSFER_TREE_HEIGHT);
  let size = state.size;
  const frontier = [...state.frontier];
  const tracked = new Map(state.tracked.map((path) => [path.leafIndex, copyPath(path)]));

  const append = (leaf: bigint, options?: { track?: boolean }) => {
    if (size >= capacity) throw new RangeError("the transfer tree is full");
    const index = size;
    // Ancestors of the new leaf, partly filled (empty to its right), up to the highest level a tracked path needs.
    const byLevel = new Map<number, TrackedPath[]>();
    for (const path of tracked.values()) {
      const level = meetingLevel(path.leafIndex, index);
      byLevel.set(level, [...(byLevel.get(level) ?? []), path]);
    }
    const needed = Math.max(0, ...byLevel.keys());
    let node = leaf;
    let stored = false;
    for (let level = 0; level < TRANSFER_TREE_HEIGHT && (level <= needed || !stored); level++) {
      for (const path of byLevel.get(level) ?? []) path.siblings[level] = node;
      const right = ((index >> BigInt(level)) & 1n) === 1n;
      if (!right && !stored) {
        frontier[level] = node;
        stored = true;
      }
      node = right ? merkleNode(frontier[level] ?? 0n, node) : merkleNode(node, zeros[level] ?? 0n);
    }
    if (options?.track) {
      const siblings = frontier.map((left, level) => (((index >> BigInt(level)) & 1n) === 1n ? left : (zeros[level] ?? 0n)));
      tracked.set(index, { leafIndex: index, leaf, siblings });
    }
    size = index + 1n;
  };

  const root = () => {
    let node = zeros[0] ?? 0n;
    for (let level = 0; level < TRANSFER_TREE_HEIGHT; level++) {
      node = ((size >> BigInt(level)) & 1n) === 1n ? merkleNode(frontier[level] ?? 0n, node) : merkleNode(node, zeros[level] ?? 0n);
    }
    return node;
  };

  return {
    append,
    size: () => size,
    root,
    path: (leafIndex) => {
      const path = tracked.get(leafIndex);
      return path === undefined ? undefined : copyPath(path);
    },
    trackedCount: () => tracked.size,
    untrack: (leafIndex) => void tracked.delete(leafIndex),
    state: () => ({ size, frontier: [...frontier], tracked: [...tracked.values()].map(copyPath) }),
  };
}
