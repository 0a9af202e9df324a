/**
 * The report's privacy part (section 7 and its target row): what a chain observer faces per mint under the
 * local default and the recommended finalize policy, and what each costs in time.
 */
import type { PrivacyPhaseResult, PrivacyResult } from "../measurements/privacyAnonymity.js";
import type { Summary } from "../harness/stats.js";

/** The target of issue 19 as one row of the report's targets table. */
export type PrivacyVerdict = { target: string; measured: string; met: boolean | undefined };

function figure(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) < 0.1 ? value.toPrecision(1) : value.toFixed(1);
}

function minMedian(summary: Summary): string {
  return summary.n === 0 ? "n/a" : `${figure(summary.min)} / ${figure(summary.median)}`;
}

function seconds(ms: number): string {
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s` : "n/a";
}

function minutes(ms: number): string {
  return Number.isFinite(ms) ? `${(ms / 60_000).toFixed(1)} min` : "n/a";
}

function zerc20(baseUnits: string): string {
  return String(Number(BigInt(baseUnits)) / 1e18);
}

/** The issue-30 targets for the observer who knows the policy, checked under the recommended policy. */
export const OBSERVER_TARGETS = {
  earlySet: "policy-aware anonymity set ≥ k for every mint released before max_delay (0 exceptions), recommended policy",
  fifo: "FIFO linking ≤ 1.5x chance, recommended policy",
  decoys: "≥ 3 decoys left after filtering by value and source in every `/proofs` request that has candidates, recommended policy",
} as const;

function observerMeasured(phase: PrivacyPhaseResult, pick: (phase: PrivacyPhaseResult) => string): string {
  return phase.observer === undefined || phase.observer.scored === 0 ? "not measured" : pick(phase);
}

function observerMet(phase: PrivacyPhaseResult, met: boolean): boolean | undefined {
  return phase.observer === undefined || phase.observer.scored === 0 || phase.failures.length > 0 ? undefined : met;
}

/** The three target rows of the observer who knows the policy, measured under the recommended policy. */
export function observerVerdicts(result: PrivacyResult): PrivacyVerdict[] {
  const { policy, local } = result;
  const figures = policy.observer;
  const early = (phase: PrivacyPhaseResult) =>
    `${phase.observer?.earlyBelowK} of ${phase.observer?.earlyMints} early mints below k (smallest set ${figure(phase.observer?.minEarlySet ?? Number.NaN)})`;
  const fifo = (phase: PrivacyPhaseResult) => `${figure(phase.observer?.fifoRate ?? Number.NaN)} vs chance ${figure(phase.observer?.chance ?? Number.NaN)}`;
  const decoys = (phase: PrivacyPhaseResult) =>
    phase.decoys === undefined || phase.decoys.requests === 0
      ? "no /proofs request recorded"
      : `${phase.decoys.belowThree} of ${phase.decoys.withCandidates} requests with candidates below 3 (fewest left ${figure(phase.decoys.minLeft)}; ${phase.decoys.short} short of candidates)`;
  return [
    { target: OBSERVER_TARGETS.earlySet, measured: observerMeasured(policy, early), met: observerMet(policy, figures?.earlyBelowK === 0) },
    {
      target: OBSERVER_TARGETS.fifo,
      measured: `${observerMeasured(policy, fifo)}; local default: ${observerMeasured(local, fifo)}`,
      met: observerMet(policy, (figures?.fifoRate ?? Number.NaN) <= 1.5 * (figures?.chance ?? Number.NaN)),
    },
    {
      target: OBSERVER_TARGETS.decoys,
      measured: `recommended: ${observerMeasured(policy, decoys)}; local default: ${observerMeasured(local, decoys)}`,
      met: policy.decoys === undefined || policy.decoys.requests === 0 ? undefined : observerMet(policy, policy.decoys.belowThree === 0),
    },
  ];
}

function observerRow(phase: PrivacyPhaseResult, result: PrivacyResult): string {
  const name = phase.policy === undefined ? "local default (0 / 0 s, k = 1)" : `recommended, ${result.compression}x compressed`;
  const observer = phase.observer;
  if (observer === undefined || observer.scored === 0) return `| ${name} | not measured | | | | | | | |`;
  const k = phase.policy?.minAnonymitySet ?? 1;
  const decoys = phase.decoys;
  return (
    `| ${name} | ${figure(phase.observerSlackSeconds)} s | ${observer.earlyMints} of ${observer.scored}: ${observer.earlyBelowK} below k = ${k} (smallest ${figure(observer.minEarlySet)}) | ` +
    `${figure(observer.medianSet)} / ${figure(observer.medianSetInHindsight)} | ${figure(observer.fifoRate)} (${figure(observer.fifoRate / observer.chance)}x) | ` +
    `${figure(observer.nearestRate)} (${figure(observer.nearestRate / observer.chance)}x) | ${figure(observer.chance)} | ` +
    `${decoys === undefined || decoys.requests === 0 ? "none recorded" : `${figure(decoys.minLeft)}; ${decoys.belowThree} of ${decoys.withCandidates} with candidates below 3; ${decoys.short} short of candidates; ${decoys.withoutDecoys} without decoys`} | ${observer.outsideWindow} |`
  );
}

/** The verdict row: under the recommended policy, the median anonymity set of same-price payments is above 1. */
export function privacyVerdict(result: PrivacyResult): PrivacyVerdict {
  const { policy, local } = result;
  const measured = policy.mints === 0 ? "not measured" : `median ${figure(policy.unmintedBurns.median)} (min ${figure(policy.unmintedBurns.min)})`;
  return {
    target: "median anonymity set > 1 for same-price payments under the recommended finalize policy",
    measured: `${measured}; local default: median ${figure(local.unmintedBurns.median)}`,
    met: policy.mints === 0 || policy.failures.length > 0 ? undefined : policy.unmintedBurns.median > 1,
  };
}

function policyCell(phase: PrivacyPhaseResult, result: PrivacyResult): string {
  if (phase.policy === undefined) return `local default (the stack's configuration: no delay, k = 1), loop every ${phase.finalizeIntervalMs} ms`;
  const { recommended, compression } = result;
  return (
    `recommended: delay ${recommended.minDelaySeconds}–${recommended.maxDelaySeconds} s, k = ${recommended.minAnonymitySet}; ` +
    `run ${compression}x compressed (${phase.policy.minDelaySeconds}–${phase.policy.maxDelaySeconds} s, loop every ${phase.finalizeIntervalMs} ms)`
  );
}

function timeCell(phase: PrivacyPhaseResult, compression: number): string {
  const { median, max } = phase.acceptedToFinalizedMs;
  const bench = `${seconds(median)} / ${seconds(max)}`;
  return phase.policy === undefined ? bench : `${bench} (production: ${minutes(median * compression)} / ${minutes(max * compression)})`;
}

/** The Markdown lines of section 7. */
export function renderPrivacySection(result: PrivacyResult): string[] {
  const { local, policy, compression, meanGapMs, prices } = result;
  const phases = [local, policy];
  const samePriceGapS = (meanGapMs * compression * prices.length) / 1000;
  const out: string[] = ["## 7. Privacy: what a chain observer can link", ""];
  out.push(
    `${local.payments} permit payments per policy at ${prices.length} prices (${prices.map(zerc20).join(", ")} zERC20 plus the 1% payer fee), arriving as a Poisson process with a mean gap of ${meanGapMs} ms (seeded: both policies see the same arrivals), each policy on a fresh facilitator of the stack's configuration with three demo providers. ` +
      "The observer's view is read back from anvil alone: every PermitBurner `BurnExecuted` (burn and value) and verifier `Teleported` (mint and value) in the policy's block range. " +
      "For each mint, the *anonymity set* is the number of earlier burns of the same amount not yet minted (earlier same-amount burns minus earlier same-amount mints: each earlier mint consumed one of them, whichever it was); " +
      "*possible sources* counts the earlier same-amount burns that some consistent burn-to-mint assignment could give this mint (it is at least the anonymity set, and equals k for every mint of a batch of k). Definitions: `bench/src/privacy/anonymitySets.ts`.",
    "",
    `A production policy holds payments for minutes. Anonymity depends on how many same-amount payments arrive within the delay window, not on the clock, so the recommended policy runs **${compression}x compressed**: delays and arrivals ${compression}x faster, its times ${compression}x longer in production (the finalize loop stays at the daemon's 1 s minimum, a minute in production terms; delays count whole seconds from the journaled acceptance second, so one may be up to 1 s shorter here). ` +
      `Its figures are those of the production policy at one payment every ${figure((meanGapMs * compression) / 1000)} s (${figure(3_600_000 / (meanGapMs * compression))} an hour over ${prices.length} prices); with fewer payments per window the k threshold or the maximum delay releases them. ` +
      `The local default has nothing to compress (its wait is the loop, the root job and the proof, in real time), so its row is at the bench's own rate, ${compression}x the production one, which flatters it: at the production rate a same-price payment arrives every ${figure(samePriceGapS)} s on average, and its median wait of ${seconds(local.acceptedToFinalizedMs.median)} would see ${figure(local.acceptedToFinalizedMs.median / 1000 / samePriceGapS)} other same-price arrivals on average: an anonymity set of 1 for nearly every mint.`,
    "",
  );
  out.push(
    "| policy | payments accepted / mints seen | anonymity set min / median | possible sources min / median | median by price | accepted → finalized median / max | mints sent by the burn sender |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...phases.map(
      (phase) =>
        `| ${policyCell(phase, result)} | ${phase.accepted} / ${phase.mints} | ${minMedian(phase.unmintedBurns)} | ${minMedian(phase.possibleSources)} | ${Object.entries(
          phase.unmintedMedianByPrice,
        )
          .map(([price, median]) => `${zerc20(price)}: ${figure(median)}`)
          .join(", ")} | ${timeCell(phase, compression)} | ${phase.mints === 0 ? "n/a" : `${phase.mintsBySameSender} of ${phase.mints}`} |`,
    ),
    "",
  );
  out.push(
    "**The observer who knows the policy** (issue 30; definitions: `anvil-fixtures/src/observer/scoreMints.ts`, `decoysAfterFiltering.ts`). It reads the same burns and mints with their block times and rules out, for each mint, the burns of another amount, those younger than the minimum delay or older than the maximum plus a slack " +
      `(at least ${result.slackSeconds} s of bench time; more, per row, where every mint needs it to keep a burn in its window, which the observer can compute from the chain), and those the earlier mints certainly consumed: what is left is the *policy-aware set* (*in hindsight* uses the later mints too). ` +
      "An *early* mint is one released before the maximum delay (from the ground truth). Linking rates are scored against the ground truth (`GET /admin/settlements`): *FIFO* pairs each mint with the oldest same-amount burn it has not paired yet, *nearest burn* with the latest; *chance* is a uniform guess among the policy-aware set. " +
      "*Decoys left*: per `/proofs` request the indexer received (through a recording proxy), the other leaves of the minted leaf's value whose sender is no token mint, no account of the facilitator and no funding account. Targets: 0 early mints below k; FIFO ≤ 1.5x chance; ≥ 3 decoys left in every request with decoys.",
    "",
    "| policy | observer's slack | early mints below k | policy-aware set median / in hindsight | FIFO linking (x chance) | nearest-burn linking (x chance) | chance | decoys left: fewest; requests below 3 | mints outside the window |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...phases.map((phase) => observerRow(phase, result)),
    "",
  );
  for (const phase of phases) {
    if (phase.failures.length > 0) out.push(`Failures (${phase.policy === undefined ? "local default" : "recommended"}): ${phase.failures.join("; ")}`, "");
  }
  out.push(
    "The sender column is the other link the issue names: a mint sent by the account that relayed the burns ties the two sides whatever the set; a separate mint key (`SVC_MINTER_PK`, set in the recommended run) removes it. " +
      `Section wall time ${Math.round(result.durationSeconds)} s.`,
    "",
  );
  return out;
}
