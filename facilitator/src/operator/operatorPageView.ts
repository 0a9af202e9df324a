/**
 * What the operator page shows, computed from what the daemon already holds: the `/admin/status` summary,
 * the readiness report, the settlement book's admin listing and the `[finalize]` policy. Kept apart from the
 * HTML so the figures are tested as data; nothing here reads a secret or does I/O.
 */
import type { FacilitatorConfig, FinalizeConfig } from "../config/facilitatorConfigSchema.js";
import { scheduleWarning } from "../config/linkabilityWarnings.js";
import { DECOY_LEAVES } from "../finalize/mixProofLeaves.js";
import type { AdminSettlement } from "./adminSettlement.js";
import type { ReadinessReport } from "../readiness/readinessReport.js";
import type { AdminStatus } from "./adminStatus.js";

/** Payments listed under "recent payments". */
export const RECENT_PAYMENTS = 20;

/** Minutes the throughput chart covers, one bar pair per minute. */
export const THROUGHPUT_MINUTES = 60;

/** One row of "recent payments": the nonce shortened, never a burn secret. */
export type RecentPayment = {
  nonce: string;
  path: AdminSettlement["path"];
  amount: string;
  state: AdminSettlement["state"];
  /** Seconds since it was accepted; `null` for a late burn, which never was. */
  ageSeconds: number | null;
  reason: string | null;
};

/** Accepted and finalized payments in one minute; `minutesAgo` 0 is the current minute. */
export type ThroughputMinute = { minutesAgo: number; accepted: number; finalized: number };

/**
 * Accepted, unminted payments of one amount: the crowd a mint of that amount hides in. Only the `mature`
 * ones (at least `min_delay_seconds` old) count toward `min_anonymity_set`, as in the schedule.
 */
export type WaitingCrowd = { amount: string; waiting: number; mature: number; reachesMinimum: boolean };

/** The privacy facts the daemon knows without new computation. */
export type AnonymityFigures = {
  minDelaySeconds: number;
  maxDelaySeconds: number;
  /** `min_anonymity_set`: the same-amount crowd a due payment waits for. */
  minAnonymitySet: number;
  /** Accepted payments not minted yet, all amounts. */
  waiting: number;
  /** Per amount, largest crowd first. */
  crowds: WaitingCrowd[];
  /** Decoy leaves of its value wanted for each real leaf of a `/proofs` request to the indexer. */
  decoysPerProofRequest: number;
  /** Real leaves sent since start with fewer decoys than that (the chain had no more); `null` when not reported. */
  decoysShort: number | null;
  /** Whether mints go out from an account other than the one relaying burns. */
  separateMinter: boolean;
  /** The startup linkability warnings that apply, as `check` words them. */
  warnings: string[];
};

/** Everything the page renders. */
export type OperatorPageView = {
  /** Unix seconds the view was taken at. */
  now: number;
  readiness: ReadinessReport;
  status: AdminStatus;
  recent: RecentPayment[];
  throughput: ThroughputMinute[];
  anonymity: AnonymityFigures;
};

/** What {@link operatorPageView} reads. */
export type OperatorPageSources = {
  now: number;
  profile: FacilitatorConfig["profile"];
  finalize: FinalizeConfig;
  readiness: ReadinessReport;
  status: AdminStatus;
  /** Every settlement in journal order (`GET /admin/settlements` without a filter). */
  settlements: readonly AdminSettlement[];
};

/** Builds the page's figures at `sources.now`. */
export function operatorPageView(sources: OperatorPageSources): OperatorPageView {
  const { now, settlements, finalize, status } = sources;
  return {
    now,
    readiness: sources.readiness,
    status,
    recent: recentPayments(settlements, now),
    throughput: throughput(settlements, now),
    anonymity: {
      minDelaySeconds: finalize.min_delay_seconds,
      maxDelaySeconds: finalize.max_delay_seconds,
      minAnonymitySet: finalize.min_anonymity_set,
      waiting: settlements.filter((entry) => entry.state === "accepted").length,
      crowds: waitingCrowds(settlements, finalize, now),
      decoysPerProofRequest: DECOY_LEAVES,
      decoysShort: status.finalize?.decoysShort ?? null,
      separateMinter: status.minter !== undefined,
      warnings: linkabilityNotes(sources),
    },
  };
}

/** The last {@link RECENT_PAYMENTS} entries, newest first; the journal appends, so its tail is the newest. */
function recentPayments(settlements: readonly AdminSettlement[], now: number): RecentPayment[] {
  return settlements
    .slice(-RECENT_PAYMENTS)
    .reverse()
    .map((entry) => ({
      nonce: shortenHex(entry.challengeNonce),
      path: entry.path,
      amount: entry.amount,
      state: entry.state,
      ageSeconds: entry.acceptedAt === undefined ? null : Math.max(0, now - entry.acceptedAt),
      reason: entry.state === "failed" || entry.state === "late_burn" ? (entry.reason ?? null) : null,
    }));
}

/**
 * Per minute of the last hour, from the journaled `acceptedAt` and `finalizedAt`: derived from the book
 * rather than counted live, so the chart survives a restart and agrees across instances sharing a journal.
 */
function throughput(settlements: readonly AdminSettlement[], now: number): ThroughputMinute[] {
  const minutes: ThroughputMinute[] = Array.from({ length: THROUGHPUT_MINUTES }, (_, index) => ({
    minutesAgo: THROUGHPUT_MINUTES - 1 - index,
    accepted: 0,
    finalized: 0,
  }));
  const slot = (at: number | undefined): ThroughputMinute | undefined => {
    if (at === undefined || at > now) return undefined;
    const minutesAgo = Math.floor((now - at) / 60);
    return minutesAgo < THROUGHPUT_MINUTES ? minutes[THROUGHPUT_MINUTES - 1 - minutesAgo] : undefined;
  };
  for (const entry of settlements) {
    const accepted = slot(entry.acceptedAt);
    if (accepted) accepted.accepted += 1;
    const finalized = slot(entry.finalizedAt);
    if (finalized) finalized.finalized += 1;
  }
  return minutes;
}

/** The same per-amount grouping the finalize schedule applies (finalizeSchedule.ts `scheduledReleases`). */
function waitingCrowds(settlements: readonly AdminSettlement[], finalize: FinalizeConfig, now: number): WaitingCrowd[] {
  const counts = new Map<string, { waiting: number; mature: number }>();
  for (const entry of settlements) {
    if (entry.state !== "accepted") continue;
    const crowd = counts.get(entry.amount) ?? { waiting: 0, mature: 0 };
    crowd.waiting += 1;
    if (entry.acceptedAt !== undefined && now >= entry.acceptedAt + finalize.min_delay_seconds) crowd.mature += 1;
    counts.set(entry.amount, crowd);
  }
  return [...counts]
    .map(([amount, { waiting, mature }]) => ({ amount, waiting, mature, reachesMinimum: mature >= finalize.min_anonymity_set }))
    .sort((a, b) => b.waiting - a.waiting || (a.amount < b.amount ? -1 : 1));
}

/**
 * The schedule warning comes from linkabilityWarnings.ts; the hands warning is read off the status (a
 * separate minter shows up there), since the keys themselves never reach the HTTP layer.
 */
function linkabilityNotes({ profile, finalize, status }: Pick<OperatorPageSources, "profile" | "finalize" | "status">): string[] {
  const notes: string[] = [];
  if (profile !== "local" && status.minter === undefined) {
    notes.push(
      "one account relays payers' burns and submits the mints to the treasury, so a chain observer can link them; set SVC_MINTER_PK to a separate funded key",
    );
  }
  const schedule = scheduleWarning({ profile, finalize });
  if (schedule) notes.push(schedule.message);
  return notes;
}

/** `0x12345678…abcd`: enough to find the entry in the journal or logs, short enough for a table. */
export function shortenHex(hex: string): string {
  return hex.length <= 16 ? hex : `${hex.slice(0, 10)}…${hex.slice(-4)}`;
}
