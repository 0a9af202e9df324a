/**
 * The anonymity set a chain observer faces for each mint, computed from public events alone.
 *
 * The observer sees every burn (the PermitBurner's `BurnExecuted` names the burn address and the value, so
 * burns are not even hidden among ordinary transfers: this is the strongest observer, and its figures are a
 * floor for a weaker one) and every mint (the verifier's `Teleported` to the treasury, with its value). What
 * it cannot see is which burn a mint consumed: the proof ties them off-chain. A mint of value `v` can only
 * come from an earlier burn of exactly `v` (the local path mints one burn address's whole value), so the
 * candidates are the earlier burns of `v`. Two figures per mint:
 *
 * - `unmintedBurns`: burns of `v` before the mint minus mints of `v` before it (floored at 0), the number of
 *   earlier same-amount burns still waiting when this mint lands. It is the definition and the usual
 *   pool-size count; it needs no guess about which burn an earlier mint took, because each earlier mint
 *   consumed exactly one of them, whichever it was. It is the conservative figure: when k waiting payments
 *   are minted back to back it reads k, k-1, …, 1 although each of those mints could be any of the k.
 * - `possibleSources`: the earlier burns `b` of `v` for which some assignment of every observed mint of `v`
 *   to a distinct earlier burn of `v` pairs this mint with `b`, i.e. the burns the observer cannot rule out.
 *   It is at least `unmintedBurns` and reads k for each mint of the batch above.
 *
 * With today's fast default both are 1 for nearly every mint: the first mint after a burn of that amount is
 * its mint. When the observed range misses a burn that a mint consumed (a burn before the range), that mint's
 * `unmintedBurns` is 0 and `possibleSources` is 0 for every mint of that amount.
 */

/** One public event, in chain order by block and log index. */
export type ObservedEvent = {
  kind: "burn" | "mint";
  /** Token base units moved (burned, or minted to the treasury). */
  value: bigint;
  blockNumber: bigint;
  logIndex: number;
};

/** What the observer faces for one mint. */
export type MintAnonymity = {
  value: bigint;
  blockNumber: bigint;
  logIndex: number;
  /** Earlier burns of the same value minus earlier mints of the same value, floored at 0. */
  unmintedBurns: number;
  /** Earlier burns of the same value that some consistent burn-to-mint assignment pairs with this mint. */
  possibleSources: number;
};

function compareEvents(a: ObservedEvent, b: ObservedEvent): number {
  if (a.blockNumber !== b.blockNumber) return a.blockNumber < b.blockNumber ? -1 : 1;
  return a.logIndex - b.logIndex;
}

/**
 * Whether every mint of `kinds` (one value's events, in order) can take a distinct earlier burn once the
 * positions in `removed` are left out. Each mint's candidates are all earlier burns, so the candidate sets
 * are nested and Hall's condition reduces to prefixes: at every mint, mints so far ≤ burns before it.
 */
function assignable(kinds: readonly ("burn" | "mint")[], removed: ReadonlySet<number>): boolean {
  let burns = 0;
  let mints = 0;
  for (let position = 0; position < kinds.length; position++) {
    if (removed.has(position)) continue;
    if (kinds[position] === "burn") burns++;
    else if (++mints > burns) return false;
  }
  return true;
}

/**
 * The anonymity set of every mint in `events` (any order; sorted here by block and log index).
 * @example
 * anonymitySets([burn(5n, 1n), burn(5n, 2n), mint(5n, 3n), mint(5n, 4n)]).map((m) => m.unmintedBurns); // [2, 1]
 */
export function anonymitySets(events: readonly ObservedEvent[]): MintAnonymity[] {
  const ordered = [...events].sort(compareEvents);
  const byValue = new Map<bigint, ("burn" | "mint")[]>();
  const positionInValue: number[] = [];
  for (const event of ordered) {
    const kinds = byValue.get(event.value) ?? [];
    positionInValue.push(kinds.length);
    kinds.push(event.kind);
    byValue.set(event.value, kinds);
  }
  const feasible = new Map([...byValue].map(([value, kinds]) => [value, assignable(kinds, new Set())]));

  const result: MintAnonymity[] = [];
  ordered.forEach((event, index) => {
    if (event.kind !== "mint") return;
    const kinds = byValue.get(event.value) ?? [];
    const mintAt = positionInValue[index] ?? 0;
    let burnsBefore = 0;
    let mintsBefore = 0;
    let possibleSources = 0;
    for (let position = 0; position < mintAt; position++) {
      if (kinds[position] === "mint") {
        mintsBefore++;
        continue;
      }
      burnsBefore++;
      if (feasible.get(event.value) === true && assignable(kinds, new Set([position, mintAt]))) possibleSources++;
    }
    result.push({
      value: event.value,
      blockNumber: event.blockNumber,
      logIndex: event.logIndex,
      unmintedBurns: Math.max(0, burnsBefore - mintsBefore),
      possibleSources,
    });
  });
  return result;
}
