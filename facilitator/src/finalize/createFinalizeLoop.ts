/**
 * The finalize loop: every `daemon.finalize_interval_ms`, off the request path, it finalizes the accepted
 * entries the finalize schedule releases (finalizeSchedule.ts), then hands every finalized entry still
 * owing a fee to one aggregated sweep.
 * The mints of a pass that sent `/proofs` are spread after it, each at a random offset within
 * {@link proofsLeadMs}, so the indexer does not see each request followed at once by the mint it serves; a
 * real leaf sent with fewer than three decoys is logged (`decoys_short`) and counted in the pass's report.
 * A failed pass backs off exponentially, up to ten times the interval, and recovers on its own. Under a
 * non-local profile it still runs but touches nothing, and an entry accepted under another chain, token,
 * verifier or treasury stays frozen until that configuration returns.
 */
import { randomInt } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { isAddressEqual, type Address, type Hex } from "viem";
import type { HistoryRecorder } from "../history/record/historyRecorder.js";
import type { JournalRecord } from "../journal/journalRecord.js";
import type { LogFields, Logger } from "../log/createLogger.js";
import type { SettlementBook, SettlementEntry } from "../settlement/settlementBook.js";
import type { FinalizeQueuePort } from "../storage/storagePorts.js";
import type { PrefetchReport } from "./createFinalizePrefetch.js";
import type { FinalizeOutcome } from "./finalizeEntry.js";
import { FINALIZE_WAITING_REASON } from "./finalizeReasons.js";
import { scheduledReleases, type FinalizeSchedule, type ScheduledRelease } from "./finalizeSchedule.js";
import { ProverError } from "./provers/errors.js";

/** The queue payments are finalized from, each under one instance's lease (one instance or several alike). */
export type SharedFinalizeQueue = {
  port: FinalizeQueuePort;
  /** This process's lease owner (unique per process). */
  owner: string;
  /** How long a lease outlives a pass that stopped (a crashed instance). */
  leaseMs: number;
  /** Folds every journal record any instance appended since the last call. */
  catchUp: () => Promise<unknown>;
};

/** Payments one pass leases from the queue; a pass that leased a full batch is followed by another at once. */
export const SHARED_FINALIZE_BATCH = 32;

/** The longest lead between a pass's batched `/proofs` request and one of its mints. */
export const PROOFS_LEAD_MAX_MS = 2_000;

/** The lead window of a loop running every `intervalMs`: at most half an interval, so passes do not pile up. */
export function proofsLeadMs(intervalMs: number): number {
  return Math.min(PROOFS_LEAD_MAX_MS, Math.floor(intervalMs / 2));
}

/** What a completed pass reports (to metrics): real leaves sent with fewer decoys than wanted since the last report. */
export type FinalizePassReport = {
  decoysShort: number;
  /** When the next pass starts: 0 right after a full batch that moved some payments on, else the interval. */
  nextPassInMs: number;
};

/** What the loop drives. */
export type FinalizeLoopDependencies = {
  /** Whether this daemon may change chain state (profile `local` with a prover). */
  active: boolean;
  intervalMs: number;
  deployment: { chainId: number; token: Address; verifier: Address; treasury: Address };
  book: SettlementBook;
  /** Journals one record and folds it into `book` (the daemon's one append-and-apply): the loop never folds by itself. */
  journal: (record: JournalRecord) => Promise<void>;
  /** `release.releasedAlone`: the schedule lets it go only because `max_delay_seconds` passed (finalizeSchedule.ts). */
  finalize: (entry: SettlementEntry, release: FinalizeRelease) => Promise<FinalizeOutcome>;
  /** Pays what it can of the fees the given finalized entries owe, in one sweep; returns the nonces now settled. */
  sweepFees: (owing: SettlementEntry[]) => Promise<Hex[]>;
  history: HistoryRecorder;
  logger: Logger;
  now: () => number;
  /** When accepted payments are minted and in which order; without one, every accepted payment leased. */
  schedule?: FinalizeSchedule | undefined;
  /**
   * Follows accepted burns and finalized mints until they are final, answering reorgs (watchReorgs.ts); runs
   * first in every pass, over every payment of this deployment, with several instances in each of them.
   */
  watch?: ((entries: readonly SettlementEntry[]) => Promise<void>) | undefined;
  /** Called with the payments a pass is about to finalize, before the first of them (to batch their reads). */
  prefetch?: ((entries: SettlementEntry[]) => Promise<PrefetchReport>) | undefined;
  /**
   * The offsets (ms after the pass's `/proofs` request, ascending) its `mints` go out at; default: each drawn
   * at random within {@link proofsLeadMs} of the interval.
   */
  lead?: ((mints: number) => number[]) | undefined;
  /** Called after every completed pass: how an operator (or a test) sees that the loop is alive. */
  onPass?: ((pass: FinalizePassReport) => void) | undefined;
  /** Where work comes from: the storage's finalize queue, under leases, so several instances never mint twice. */
  queue: SharedFinalizeQueue;
};

/** How the schedule released a payment, handed to the finalize step (metrics count the lone ones). */
export type FinalizeRelease = { releasedAlone: boolean };

/** A running loop. */
export type FinalizeLoop = {
  /** Runs one pass now (tests and benchmarks); resolves when it is done. */
  runOnce: () => Promise<void>;
  /** Stops scheduling and waits for a pass in progress. */
  stop: () => Promise<void>;
};

/** The longest backoff, as a multiple of the interval. */
export const MAX_BACKOFF_FACTOR = 10;

/** Starts the loop; the first pass runs after one interval. */
export function createFinalizeLoop(deps: FinalizeLoopDependencies): FinalizeLoop {
  const { book, logger } = deps;
  let failures = 0;
  // Short decoys logged but not reported yet: a pass that throws leaves them to the next completed one.
  let decoysShort = 0;
  let timer: NodeJS.Timeout | undefined;
  const leadMs = proofsLeadMs(deps.intervalMs);
  const lead = deps.lead ?? ((mints: number) => Array.from({ length: mints }, () => randomInt(leadMs + 1)).sort((a, b) => a - b));
  let running: Promise<void> | undefined;
  let stopped = false;

  const matchesDeployment = (entry: SettlementEntry): boolean =>
    entry.challenge.chainId === deps.deployment.chainId &&
    isAddressEqual(entry.token, deps.deployment.token) &&
    isAddressEqual(entry.verifier, deps.deployment.verifier) &&
    isAddressEqual(entry.treasury, deps.deployment.treasury);

  const finalizeOne = async (entry: SettlementEntry, release: FinalizeRelease): Promise<void> => {
    const challengeNonce = entry.challenge.challengeNonce;
    const outcome = await deps.finalize(entry, release);
    if (outcome.kind === "waiting") {
      // A refused witness wants an operator's eye before it fails the payment; the other waits are routine.
      if (outcome.reason === FINALIZE_WAITING_REASON.witnessRejected) logger.warn("finalize_waiting", outcomeFields(challengeNonce, outcome));
      else logger.debug("finalize_waiting", outcomeFields(challengeNonce, outcome));
      return;
    }
    if (outcome.kind === "failed") {
      const record: JournalRecord = { type: "failed", challengeNonce, reason: outcome.reason, at: deps.now() };
      await deps.journal(record);
      logger.warn("payment_failed", outcomeFields(challengeNonce, outcome));
      return;
    }
    const record: JournalRecord = { type: "finalized", challengeNonce, mintTxHash: outcome.mintTxHash, at: deps.now() };
    await deps.journal(record);
    // released_alone: fewer than min_anonymity_set mature same-amount payments waited, so an observer who knows the policy may link it.
    logger.info("payment_finalized", {
      challenge_nonce: challengeNonce,
      mint_tx: outcome.mintTxHash,
      minted: outcome.minted,
      released_alone: release.releasedAlone,
    });
    deps.history
      .recordFinalized({ challengeNonce, mintTxHash: outcome.mintTxHash })
      .catch((error: unknown) =>
        logger.warn("history_finalized_failed", { challenge_nonce: challengeNonce, error: error instanceof Error ? error.name : "unknown" }),
      );
  };

  // The accepted payments the schedule releases now, in mint order (crowds are counted over every instance's
  // payments; the recently finalized ones tell the schedule which due turns mints have already taken).
  const releasable = (): ScheduledRelease<SettlementEntry>[] => {
    const waiting = book.list("accepted").filter(matchesDeployment);
    if (deps.schedule === undefined) return waiting.map((payment) => ({ payment, releasedAlone: false }));
    const now = deps.now();
    const since = now - deps.schedule.policy.max_delay_seconds;
    const minted = book.list("finalized").filter((entry) => entry.at > since && matchesDeployment(entry));
    return scheduledReleases(deps.schedule, waiting, now, minted);
  };

  // The leased payments the schedule releases now, in mint order; handBack returns the others to the queue.
  const releasedOf = (leased: readonly Hex[]): { challengeNonce: Hex; release: FinalizeRelease }[] => {
    const held = new Set(leased.map((challengeNonce) => challengeNonce.toLowerCase()));
    return releasable()
      .map(({ payment, releasedAlone }) => ({ challengeNonce: payment.challenge.challengeNonce, release: { releasedAlone } }))
      .filter(({ challengeNonce }) => held.has(challengeNonce.toLowerCase()));
  };

  const owesFee = (entry: SettlementEntry | undefined): entry is SettlementEntry =>
    entry?.state === "finalized" && entry.feeSettledAt === undefined && matchesDeployment(entry);

  const sweepFees = async (owing: SettlementEntry[]): Promise<void> => {
    if (owing.length === 0 || stopped) return;
    for (const challengeNonce of await deps.sweepFees(owing)) logger.info("fee_settled", { challenge_nonce: challengeNonce });
  };

  // One payment, leased: mint it (its fee is swept with the others this instance holds).
  const finalizeLeased = async (challengeNonce: Hex, release: FinalizeRelease): Promise<void> => {
    const entry = book.entry(challengeNonce);
    if (entry?.state === "accepted" && matchesDeployment(entry)) await finalizeOne(entry, release);
  };

  // A leased payment goes back to the queue while something is still to do (a mint, or a fee not yet swept).
  // Resolves to whether the payment left the queue (nothing more to do for it).
  const handBack = async (queue: SharedFinalizeQueue, challengeNonce: Hex): Promise<boolean> => {
    const entry = book.entry(challengeNonce);
    const open = entry !== undefined && matchesDeployment(entry) && (entry.state === "accepted" || owesFee(entry));
    if (open) await queue.port.release(challengeNonce, queue.owner);
    else await queue.port.complete(challengeNonce, queue.owner);
    return !open;
  };

  const watchReorgs = async (): Promise<void> => {
    if (deps.watch === undefined) return;
    await deps.watch([...book.list("accepted"), ...book.list("finalized")].filter(matchesDeployment));
  };

  // Resolves to whether another pass should follow at once: the pass leased a full batch (more may be waiting
  // behind it) and moved some of it on (minted, or done with). A full batch of payments that are not due yet, or that wait for a
  // root, goes back to the queue unchanged: leasing it again at once would spin the event loop until they
  // are (half a core with the indexer down and 80 payments waiting), so the loop waits its interval instead.
  const pass = async (): Promise<boolean> => {
    if (!deps.active) return false;
    const { queue } = deps;
    await queue.catchUp();
    await watchReorgs();
    // Whatever the book owes goes into the queue (idempotent), so an accept whose enqueue a crash cut off
    // is queued anyway; the catch-up after leasing drops what another instance finished meanwhile.
    for (const entry of [...book.list("accepted"), ...book.list("finalized")]) {
      if (entry.state === "accepted" ? matchesDeployment(entry) : owesFee(entry)) await queue.port.enqueue(entry.challenge.challengeNonce);
    }
    const leased = await queue.port.lease(queue.owner, SHARED_FINALIZE_BATCH, queue.leaseMs);
    if (leased.length === 0) return false;
    await queue.catchUp();
    const acceptedBefore = new Set(leased.filter((challengeNonce) => book.entry(challengeNonce)?.state === "accepted"));
    let movedOn = 0;
    try {
      const released = releasedOf(leased);
      const prefetched = await deps.prefetch?.(released.map(({ challengeNonce }) => book.entry(challengeNonce)).filter((entry) => entry !== undefined));
      for (const { wanted, found } of prefetched?.decoysShort ?? []) logger.info("decoys_short", { wanted, found });
      decoysShort += prefetched?.decoysShort.length ?? 0;
      const requestedAt = performance.now();
      const offsets = prefetched?.requested ? lead(released.length) : [];
      for (const [index, { challengeNonce, release }] of released.entries()) {
        const until = requestedAt + (offsets[index] ?? 0) - performance.now();
        if (until > 0 && !stopped) await sleep(until);
        if (!stopped) await finalizeLeased(challengeNonce, release);
      }
      // Only fees of payments this instance holds are swept here, so no two instances sweep the same fee.
      await sweepFees(leased.map((challengeNonce) => book.entry(challengeNonce)).filter(owesFee));
    } finally {
      // Also after a failed pass: the next pass (here or on another instance) retries at once, not a lease later.
      for (const challengeNonce of leased) {
        const left = await handBack(queue, challengeNonce).catch(() => false);
        if (left || (acceptedBefore.has(challengeNonce) && book.entry(challengeNonce)?.state !== "accepted")) movedOn++;
      }
    }
    return leased.length === SHARED_FINALIZE_BATCH && movedOn > 0;
  };

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => void runOnce(), delayMs);
    timer.unref();
  };

  const runOnce = (): Promise<void> => {
    if (running) return running;
    clearTimeout(timer);
    running = pass()
      .then((full) => {
        failures = 0;
        const pass = { decoysShort, nextPassInMs: full ? 0 : deps.intervalMs };
        decoysShort = 0;
        deps.onPass?.(pass);
        schedule(pass.nextPassInMs);
      })
      .catch((error: unknown) => {
        failures++;
        const delay = Math.min(deps.intervalMs * 2 ** failures, deps.intervalMs * MAX_BACKOFF_FACTOR);
        logger.warn("finalize_pass_failed", {
          error: error instanceof Error ? error.name : "unknown",
          // A prover adapter's failure says why in its reason code (prover_timeout, prover_failed, …).
          ...(error instanceof ProverError ? { reason: error.reason } : {}),
          failures,
          retry_in_ms: delay,
        });
        schedule(delay);
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  if (!deps.active) logger.info("finalize_frozen", { reason: "payment acceptance is disabled for this profile; entries stay as they are" });
  schedule(deps.intervalMs);
  return {
    runOnce,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** The log fields of a waiting or failed outcome: the reason code, and its detail when there is one. */
function outcomeFields(challengeNonce: string, outcome: Exclude<FinalizeOutcome, { kind: "finalized" }>): LogFields {
  return { challenge_nonce: challengeNonce, reason: outcome.reason, ...(outcome.detail === undefined ? {} : { detail: outcome.detail }) };
}
