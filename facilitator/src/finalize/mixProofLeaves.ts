/**
 * The leaf indices of one `/proofs` request: the burn address's own leaves mixed with a few decoys, leaves of
 * other addresses' transfers from the same range, sorted so their position says nothing. The indexer then
 * sees a handful of leaves of different addresses and cannot tell which one is about to be minted.
 */
import { randomInt } from "node:crypto";
import { INDEXER_MAX_PROOF_LEAVES } from "@svc/scheme";

/** Decoy leaves added to each `/proofs` request. */
export const DECOY_LEAVES = 3;

/**
 * `own` plus up to `count` distinct decoys drawn at random from `candidates` below `provedIndex` (a leaf must
 * be below the proved root's index to have a path), ascending.
 */
export function mixProofLeaves(
  own: readonly bigint[],
  candidates: readonly bigint[],
  provedIndex: bigint,
  count: number = DECOY_LEAVES,
  draw: (below: number) => number = randomInt,
): bigint[] {
  const taken = new Set(own);
  const pool = [...new Set(candidates)].filter((leaf) => leaf < provedIndex && !taken.has(leaf));
  const leaves = [...own];
  for (let picked = 0; picked < count && pool.length > 0; picked++) {
    const [decoy] = pool.splice(draw(pool.length), 1);
    if (decoy !== undefined) leaves.push(decoy);
  }
  return leaves.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The `/proofs` requests for `own` leaves: chunks of at most `maxLeaves` (the v2 indexer's cap) including
 * their decoys, each mixed like {@link mixProofLeaves}, so a request never exceeds the cap and none of them
 * carries only our own leaves.
 */
export function splitProofRequests(
  own: readonly bigint[],
  candidates: readonly bigint[],
  provedIndex: bigint,
  maxLeaves: number = INDEXER_MAX_PROOF_LEAVES,
  count: number = DECOY_LEAVES,
): bigint[][] {
  const perRequest = Math.max(1, maxLeaves - count);
  const requests: bigint[][] = [];
  for (let start = 0; start < own.length; start += perRequest) {
    requests.push(mixProofLeaves(own.slice(start, start + perRequest), candidates, provedIndex, Math.min(count, maxLeaves - 1)));
  }
  return requests;
}
