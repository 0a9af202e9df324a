/**
 * The leaf indices of one `/proofs` request: our own leaves, each with {@link DECOY_LEAVES} decoys of its own
 * value (decoyCandidates.ts says which transfers qualify), sorted so their position says nothing. The indexer
 * sees several leaves of one value, each into what looks like a burn address, and cannot tell which one is
 * about to be minted; several own leaves of different values each hide among their own value's decoys.
 *
 * A leaf's decoys are kept and offered again while it waits (a payment retried over several passes): decoys
 * drawn afresh on every request would leave the real leaf as the one every request shares.
 */
import { randomInt } from "node:crypto";
import { INDEXER_MAX_PROOF_LEAVES } from "@svc/scheme";

/** Decoy leaves wanted for each own leaf of a `/proofs` request. */
export const DECOY_LEAVES = 3;

/** A leaf and the value of its transfer. */
export type ValuedLeaf = { leaf: bigint; value: bigint };

/** An own leaf that got fewer than the decoys it wanted (no leaf index: the log and metrics never name ours). */
export type DecoyShortfall = { wanted: number; found: number };

/** Decoys chosen per own leaf, kept between requests. */
export type ChosenDecoys = Map<bigint, bigint[]>;

/** One request's leaves, ascending, and the own leaves that found fewer decoys than wanted. */
export type MixedRequest = { leaves: bigint[]; shortfalls: DecoyShortfall[] };

/**
 * `own` plus, for each own leaf, up to `count` distinct decoys of its value from `candidates` below
 * `provedIndex` (a leaf must be below the proved root's index to have a path): first those `chosen` kept for
 * it, then drawn at random. No decoy serves two own leaves, and no own leaf is a decoy.
 */
export function mixProofLeaves(
  own: readonly ValuedLeaf[],
  candidates: readonly ValuedLeaf[],
  provedIndex: bigint,
  options: { count?: number; draw?: (below: number) => number; chosen?: ChosenDecoys; taken?: Set<bigint> } = {},
): MixedRequest {
  const count = options.count ?? DECOY_LEAVES;
  const draw = options.draw ?? randomInt;
  const chosen = options.chosen ?? new Map<bigint, bigint[]>();
  const taken = options.taken ?? new Set<bigint>();
  for (const { leaf } of own) taken.add(leaf);
  const usable = new Map<bigint, bigint>();
  for (const candidate of candidates) if (candidate.leaf < provedIndex) usable.set(candidate.leaf, candidate.value);
  const leaves: bigint[] = [];
  const shortfalls: DecoyShortfall[] = [];
  for (const { leaf, value } of own) {
    const picks = (chosen.get(leaf) ?? []).filter((decoy) => usable.get(decoy) === value && !taken.has(decoy)).slice(0, count);
    for (const decoy of picks) taken.add(decoy);
    const pool = [...usable].flatMap(([decoy, decoyValue]) => (decoyValue === value && !taken.has(decoy) ? [decoy] : []));
    while (picks.length < count && pool.length > 0) {
      const [decoy] = pool.splice(draw(pool.length), 1);
      if (decoy === undefined) break;
      picks.push(decoy);
      taken.add(decoy);
    }
    chosen.set(leaf, picks);
    leaves.push(leaf, ...picks);
    if (picks.length < count) shortfalls.push({ wanted: count, found: picks.length });
  }
  return { leaves: leaves.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), shortfalls };
}

/**
 * The `/proofs` requests for `own` leaves: as few as the indexer's cap `maxLeaves` allows with every own leaf
 * and its decoys in one request, each mixed like {@link mixProofLeaves}, so several payments due together
 * share one request and none carries only our own leaves.
 */
export function splitProofRequests(
  own: readonly ValuedLeaf[],
  candidates: readonly ValuedLeaf[],
  provedIndex: bigint,
  options: { maxLeaves?: number; count?: number; chosen?: ChosenDecoys; draw?: (below: number) => number } = {},
): MixedRequest[] {
  const maxLeaves = options.maxLeaves ?? INDEXER_MAX_PROOF_LEAVES;
  const count = Math.min(options.count ?? DECOY_LEAVES, maxLeaves - 1);
  const perRequest = Math.max(1, Math.floor(maxLeaves / (count + 1)));
  // Shared by every request, so no decoy and no own leaf shows up twice across them.
  const taken = new Set(own.map(({ leaf }) => leaf));
  const requests: MixedRequest[] = [];
  for (let start = 0; start < own.length; start += perRequest) {
    requests.push(mixProofLeaves(own.slice(start, start + perRequest), candidates, provedIndex, { ...options, count, taken }));
  }
  return requests;
}
