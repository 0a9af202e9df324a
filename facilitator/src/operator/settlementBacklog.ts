/**
 * The operator's view of unfinished and stuck work: per settlement state, how many entries and how old the
 * oldest one is. One computation feeds `/metrics`, `GET /admin/backlog` and `facilitator status`, so the
 * three never disagree.
 */
import type { SettlementBook } from "../settlement/settlementBook.js";

/**
 * The states the backlog reports: permit intents not yet resolved, the settlement states, late burns, and
 * `reorged`: accepted payments whose burn a reorg removed and that the chain does not hold now (counted there
 * instead of under `accepted`, since they wait on the chain rather than on the finalize loop).
 */
export const BACKLOG_STATES = ["intent", "accepted", "reorged", "finalized", "failed", "late_burn"] as const;

/** One of {@link BACKLOG_STATES}. */
export type BacklogState = (typeof BACKLOG_STATES)[number];

/** Count and age of the oldest entry (seconds since it reached the state; `null` when there is none). */
export type BacklogBucket = { count: number; oldestAgeSeconds: number | null };

/** The backlog by state. */
export type SettlementBacklog = Record<BacklogState, BacklogBucket>;

/** Counts the book's entries per state at unix second `now`. */
export function settlementBacklog(book: SettlementBook, now: number): SettlementBacklog {
  const since: Record<BacklogState, number[]> = { intent: [], accepted: [], reorged: [], finalized: [], failed: [], late_burn: [] };
  for (const intent of book.openIntents()) since.intent.push(intent.at);
  for (const entry of book.list()) {
    if (entry.state === "accepted" && entry.burnMissingSince !== undefined) {
      since.reorged.push(entry.burnMissingSince);
      continue;
    }
    const reached = entry.state === "finalized" ? entry.finalizedAt : entry.state === "failed" ? entry.failedAt : undefined;
    since[entry.state].push(reached ?? entry.at);
  }
  for (const late of book.lateBurns) since.late_burn.push(late.at);
  const bucket = (times: number[]): BacklogBucket => ({
    count: times.length,
    oldestAgeSeconds: times.length === 0 ? null : Math.max(0, now - Math.min(...times)),
  });
  return {
    intent: bucket(since.intent),
    accepted: bucket(since.accepted),
    reorged: bucket(since.reorged),
    finalized: bucket(since.finalized),
    failed: bucket(since.failed),
    late_burn: bucket(since.late_burn),
  };
}
