/**
 * How well an observer who knows the finalize policy does against one run, from the chain's burns and mints
 * alone, scored against the ground truth (which burn each mint consumed, from the facilitator's admin API).
 *
 * The observer's model of the policy (facilitator/README.md, "Finalize schedule"): a mint of value `v` at
 * block time `t` consumed one burn of exactly `v`, mined earlier, whose age `t - burn.at` is at least
 * `min_delay_seconds` (the schedule never releases a younger payment) and at most `max_delay_seconds` plus
 * `slackSeconds` (the maximum always releases; the slack covers the confirmations before acceptance, the finalize
 * loop's interval, the proof and the mint's inclusion, which the policy does not state). Block times are
 * whole seconds, as the schedule's own clock is.
 *
 * - Policy-aware anonymity set of a mint: the burns of its value inside its window that are not yet
 *   certainly consumed. A burn is certainly consumed when the earlier mints of that value cannot all be
 *   given distinct burns inside their own windows without it (a maximum matching of earlier mints to burns
 *   shrinks once it is removed). Only earlier mints count: this is what the observer can conclude when the
 *   mint lands, and what the schedule promises (k mature same-amount payments waiting at release).
 *   `policyAwareSetInHindsight` applies the same rule with every other mint of the run, later ones included,
 *   which an observer reading the chain afterwards can also use; it can only be smaller.
 * - Early mint: one whose true burn is less than `max_delay_seconds` older (released before the maximum).
 *   The schedule's target is a policy-aware set of at least `min_anonymity_set` for each of them.
 * - FIFO guess: the oldest burn of the value the observer has not yet paired with an earlier mint (a queue
 *   per value). Nearest-burn guess: the latest such burn (a stack per value). Each rate is the share of mints
 *   whose guess is the true burn.
 * - Chance: what a uniform guess among the policy-aware set would score, the mean of 1 / set size (a set of
 *   0, the model failing, counts as 1).
 */
import type { Hash } from "viem";
import type { TimedEvent } from "./readObservedChain.js";

/** The finalize policy as the observer knows it, plus the slack it allows past the maximum. */
export type ObserverPolicy = {
  minDelaySeconds: number;
  maxDelaySeconds: number;
  minAnonymitySet: number;
  /** Seconds past `maxDelaySeconds` a released payment may still take to be mined. */
  slackSeconds: number;
};

/** Which burn a mint consumed: a settlement's burn and mint transactions. */
export type GroundTruthPair = { burnTxHash: Hash; mintTxHash: Hash };

/** What the observer faces, and guesses, for one mint. */
export type MintScore = {
  value: bigint;
  at: number;
  transactionHash: Hash;
  /** The burn it consumed, when the ground truth names it and the burn is in the range. */
  trueBurn: Hash | undefined;
  /** Seconds from the true burn to the mint. */
  delaySeconds: number | undefined;
  /** Released before `maxDelaySeconds` (from the ground truth). */
  early: boolean | undefined;
  /** Whether the true burn lies inside the mint's window (the observer's model held). */
  trueBurnInWindow: boolean | undefined;
  policyAwareSet: number;
  policyAwareSetInHindsight: number;
  fifoCorrect: boolean | undefined;
  nearestCorrect: boolean | undefined;
};

type Group = { burns: TimedEvent[]; mints: TimedEvent[] };

function chainOrder(a: TimedEvent, b: TimedEvent): number {
  if (a.blockNumber !== b.blockNumber) return a.blockNumber < b.blockNumber ? -1 : 1;
  return a.logIndex - b.logIndex;
}

function inWindow(mint: TimedEvent, burn: TimedEvent, policy: ObserverPolicy): boolean {
  if (chainOrder(burn, mint) >= 0) return false;
  const age = mint.at - burn.at;
  return age >= policy.minDelaySeconds && age <= policy.maxDelaySeconds + policy.slackSeconds;
}

/** Size of a maximum matching of `mints` to distinct burns of `burns` inside their windows (augmenting paths). */
function maximumMatching(mints: readonly TimedEvent[], burns: readonly TimedEvent[], policy: ObserverPolicy): number {
  const candidates = mints.map((mint) => burns.flatMap((burn, index) => (inWindow(mint, burn, policy) ? [index] : [])));
  const owner = new Array<number>(burns.length).fill(-1);
  const augment = (mint: number, seen: boolean[]): boolean => {
    for (const burn of candidates[mint] ?? []) {
      if (seen[burn]) continue;
      seen[burn] = true;
      const current = owner[burn] ?? -1;
      if (current === -1 || augment(current, seen)) {
        owner[burn] = mint;
        return true;
      }
    }
    return false;
  };
  let size = 0;
  for (let mint = 0; mint < mints.length; mint++) if (augment(mint, new Array<boolean>(burns.length).fill(false))) size++;
  return size;
}

/** The burns of `mint`'s window that `others` do not certainly consume. */
function possibleBurns(mint: TimedEvent, others: readonly TimedEvent[], burns: readonly TimedEvent[], policy: ObserverPolicy): number {
  const full = maximumMatching(others, burns, policy);
  return burns.filter(
    (burn) =>
      inWindow(mint, burn, policy) &&
      maximumMatching(
        others,
        burns.filter((other) => other !== burn),
        policy,
      ) === full,
  ).length;
}

/**
 * Scores every mint of `events` (burns and mints of one run, any order).
 * @example
 * scoreMints(observed.events, { minDelaySeconds: 2, maxDelaySeconds: 12, minAnonymitySet: 3, slackSeconds: 3 }, truth);
 */
export function scoreMints(events: readonly TimedEvent[], policy: ObserverPolicy, truth: readonly GroundTruthPair[]): MintScore[] {
  const ordered = [...events].sort(chainOrder);
  const burnOf = new Map(truth.map((pair) => [pair.mintTxHash.toLowerCase(), pair.burnTxHash.toLowerCase()]));
  const burnByHash = new Map(ordered.filter((event) => event.kind === "burn").map((event) => [event.transactionHash.toLowerCase(), event]));
  const groups = new Map<bigint, Group>();
  for (const event of ordered) {
    const group = groups.get(event.value) ?? { burns: [], mints: [] };
    (event.kind === "burn" ? group.burns : group.mints).push(event);
    groups.set(event.value, group);
  }
  const fifo = new Map<bigint, TimedEvent[]>();
  const nearest = new Map<bigint, TimedEvent[]>();
  const scores: MintScore[] = [];
  for (const event of ordered) {
    if (event.kind === "burn") {
      for (const book of [fifo, nearest]) book.set(event.value, [...(book.get(event.value) ?? []), event]);
      continue;
    }
    const group = groups.get(event.value) ?? { burns: [], mints: [] };
    const earlierMints = group.mints.filter((mint) => chainOrder(mint, event) < 0);
    const earlierBurns = group.burns.filter((burn) => chainOrder(burn, event) < 0);
    const otherMints = group.mints.filter((mint) => mint !== event);
    const trueBurnHash = burnOf.get(event.transactionHash.toLowerCase());
    const trueBurn = trueBurnHash === undefined ? undefined : burnByHash.get(trueBurnHash);
    const fifoGuess = fifo.get(event.value)?.shift();
    const nearestGuess = nearest.get(event.value)?.pop();
    const delaySeconds = trueBurn === undefined ? undefined : event.at - trueBurn.at;
    scores.push({
      value: event.value,
      at: event.at,
      transactionHash: event.transactionHash,
      trueBurn: trueBurn?.transactionHash,
      delaySeconds,
      early: delaySeconds === undefined ? undefined : delaySeconds < policy.maxDelaySeconds,
      trueBurnInWindow: trueBurn === undefined ? undefined : inWindow(event, trueBurn, policy),
      policyAwareSet: possibleBurns(event, earlierMints, earlierBurns, policy),
      policyAwareSetInHindsight: possibleBurns(event, otherMints, group.burns, policy),
      fifoCorrect: trueBurn === undefined ? undefined : fifoGuess === trueBurn,
      nearestCorrect: trueBurn === undefined ? undefined : nearestGuess === trueBurn,
    });
  }
  return scores;
}

/**
 * The smallest slack, in whole seconds from `policy.slackSeconds` up to `limitSeconds`, at which every mint of
 * `events` can take a distinct burn of its value inside its window. An observer computes it from the chain
 * alone; it matters where the policy states no useful maximum (the local default mints after the loop and the
 * proof, however long those take), so the observer's window does not exclude the true burns by construction.
 */
export function consistentSlack(events: readonly TimedEvent[], policy: ObserverPolicy, limitSeconds = 3600): number {
  const groups = new Map<bigint, Group>();
  for (const event of [...events].sort(chainOrder)) {
    const group = groups.get(event.value) ?? { burns: [], mints: [] };
    (event.kind === "burn" ? group.burns : group.mints).push(event);
    groups.set(event.value, group);
  }
  const consistent = (slackSeconds: number) =>
    [...groups.values()].every((group) => maximumMatching(group.mints, group.burns, { ...policy, slackSeconds }) === group.mints.length);
  let low = policy.slackSeconds;
  let high = limitSeconds;
  if (consistent(low) || !consistent(high)) return consistent(low) ? low : high;
  // Windows only grow with the slack, so consistency is monotone in it.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (consistent(middle)) high = middle;
    else low = middle;
  }
  return high;
}

/** The run's figures, with the targets they are checked against. */
export type ObserverFigures = {
  mints: number;
  /** Mints whose true burn is known (the rates are over these). */
  scored: number;
  earlyMints: number;
  /** Early mints whose policy-aware set is below `minAnonymitySet` (target: 0). */
  earlyBelowK: number;
  /** Smallest policy-aware set of an early mint (NaN without early mints). */
  minEarlySet: number;
  medianSet: number;
  medianSetInHindsight: number;
  /** Mints whose true burn lies outside the observer's window (the slack was too small, or the policy was not the stated one). */
  outsideWindow: number;
  fifoRate: number;
  nearestRate: number;
  chance: number;
};

function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Sums `scores` into the run's figures. */
export function observerFigures(scores: readonly MintScore[], policy: Pick<ObserverPolicy, "minAnonymitySet">): ObserverFigures {
  const scored = scores.filter((score) => score.trueBurn !== undefined);
  const early = scored.filter((score) => score.early === true);
  const rate = (hits: number) => (scored.length === 0 ? Number.NaN : hits / scored.length);
  return {
    mints: scores.length,
    scored: scored.length,
    earlyMints: early.length,
    earlyBelowK: early.filter((score) => score.policyAwareSet < policy.minAnonymitySet).length,
    minEarlySet: early.length === 0 ? Number.NaN : Math.min(...early.map((score) => score.policyAwareSet)),
    medianSet: median(scores.map((score) => score.policyAwareSet)),
    medianSetInHindsight: median(scores.map((score) => score.policyAwareSetInHindsight)),
    outsideWindow: scored.filter((score) => score.trueBurnInWindow === false).length,
    fifoRate: rate(scored.filter((score) => score.fifoCorrect === true).length),
    nearestRate: rate(scored.filter((score) => score.nearestCorrect === true).length),
    chance: scored.length === 0 ? Number.NaN : scored.reduce((sum, score) => sum + 1 / Math.max(1, score.policyAwareSet), 0) / scored.length,
  };
}
