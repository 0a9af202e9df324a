/**
 * The embedded storage adapter: today's single-process state behind the storage ports. The journal is the
 * fsynced JSONL file (or nothing with `journal = "none"`), issued challenges are journaled `challenge`
 * records held by a {@link ChallengeStore} (with its retention and bounds), the burn-address stock is its
 * JSONL file, the followed transfer tree is `<journal>.witnesses` (witnessStateFile.ts), payment history is the `PAYMENT_HISTORY_PATH` file, and claims, leases, nonces and rate-limit counts live in memory: with one process, memory is
 * where every caller meets.
 */
import { access, constants } from "node:fs/promises";
import type { Address, Hex } from "viem";
import { BurnAddressStockFile } from "./burnAddressStockFile.js";
import { witnessStateFile } from "./witnessStateFile.js";
import { ChallengeStore, type ChallengeStoreParameters } from "../challenges/challengeStore.js";
import { SlidingWindowRateLimiter } from "../rateLimits/slidingWindowRateLimiter.js";
import { fromJournaledChallenge, toJournaledChallenge } from "../journal/journaledChallenge.js";
import type { JournalRecord } from "../journal/journalRecord.js";
import { claimChainIdentityFile } from "../journal/chainIdentityFile.js";
import { openSettlementJournal, type JournalCompactionOptions } from "../journal/openSettlementJournal.js";
import { paymentHistoryFileStore } from "../history/record/paymentHistoryFileStore.js";
import type { FacilitatorStorage } from "./storagePorts.js";

/** Where the embedded adapter keeps its files. */
export type EmbeddedStorageOptions = {
  /** `settlement.journal`, or `null` for `journal = "none"`. */
  journalPath: string | null;
  /** The journal's compaction policy (none when omitted). */
  compaction?: JournalCompactionOptions;
  /** The challenge store's bounds (`daemon.max_open_challenges`, retention). */
  challenges: ChallengeStoreParameters;
  /** Clock in milliseconds for claims and leases; `Date.now` unless a test moves it. */
  now?: () => number;
  /** Completed settle claims remembered (default {@link EMBEDDED_COMPLETED_CLAIMS_KEPT}). */
  completedClaimsKept?: number;
};

type Lease = { owner: string; until: number };

/**
 * Completed settle claims remembered. In one process a settled payment's re-send is answered from its
 * `accepted` record in the book before anything reaches the chain, so the marker is not what prevents a second
 * burn; keeping only the latest ones bounds memory on a daemon that runs for months.
 */
export const EMBEDDED_COMPLETED_CLAIMS_KEPT = 10_000;

const key = (hex: string): string => hex.toLowerCase();

/** Opens the embedded adapter over the journal at `journalPath`. */
export async function openEmbeddedStorage(options: EmbeddedStorageOptions): Promise<FacilitatorStorage> {
  const now = options.now ?? Date.now;
  const journal = await openSettlementJournal(options.journalPath, options.compaction);
  // The records not yet read, from absolute position `read` on: the one process follows its own journal, so
  // what it has read is dropped and memory holds only what is in flight, not every record since the start.
  let unread: JournalRecord[] = [...journal.restored];
  let read = 0;
  const store = new ChallengeStore(options.challenges);
  for (const record of journal.restored) if (record.type === "challenge") store.restore(fromJournaledChallenge(record.challenge), false);

  const append = async (record: JournalRecord): Promise<void> => {
    await journal.append(record);
    unread.push(record);
  };
  const claims = new Map<string, Lease | "complete">();
  const completed: string[] = [];
  const queue = new Map<string, Lease | undefined>();
  // Per key: the nonce after the last successful broadcast, and the keys whose next nonce that is known to be
  // (no broadcast threw since the pending count was last read).
  const nonces = new Map<string, number>();
  const nonceKnown = new Set<string>();
  const nonceTails = new Map<string, Promise<unknown>>();
  const limiters = new Map<string, SlidingWindowRateLimiter>();

  return {
    kind: "embedded",
    location: options.journalPath === null ? "no journal" : `the journal ${options.journalPath}`,
    readiness: { detail: options.journalPath === null ? { storage: "embedded", journal: "none" } : { storage: "embedded" }, failure: "not_writable" },
    tornJournalLine: journal.tornLine,
    chainIdentity: {
      claim: async (identity) => (options.journalPath === null ? identity : claimChainIdentityFile(options.journalPath, identity)),
    },
    challenges: {
      put: async (challenge) => {
        const journaled = toJournaledChallenge(challenge);
        await append({ type: "challenge", challenge: journaled, at: Math.floor(now() / 1000) });
        // The issuer reserved the slot under the cap before deriving; storing it here never refuses. What is
        // kept is what the journal holds (no burn secret), so a read answers the same before and after a restart.
        store.restore(fromJournaledChallenge(journaled), false);
      },
      get: async (challengeNonce: Hex) => store.get(challengeNonce)?.record,
      findByPayTo: async (payTo: Address) => store.findByPayTo(payTo)?.record,
    },
    journal: {
      append,
      readSince: async (cursor = 0n) => {
        const from = Number(cursor);
        if (from < read) throw new RangeError(`journal records before ${read} were already read by this process`);
        unread = unread.slice(from - read);
        read = from;
        return { records: [...unread], cursor: BigInt(read + unread.length) };
      },
      // The file journal archives under the policy it was opened with; readers here keep their cursors.
      compact: () => journal.compact(),
    },
    settleClaims: {
      claim: async (challengeNonce, owner, leaseMs) => {
        const held = claims.get(key(challengeNonce));
        if (held === "complete") return false;
        if (held !== undefined && held.owner !== owner && held.until > now()) return false;
        claims.set(key(challengeNonce), { owner, until: now() + leaseMs });
        return true;
      },
      release: async (challengeNonce, owner) => {
        const held = claims.get(key(challengeNonce));
        if (held !== undefined && held !== "complete" && held.owner === owner) claims.delete(key(challengeNonce));
      },
      complete: async (challengeNonce, owner) => {
        const held = claims.get(key(challengeNonce));
        if (held === undefined || held === "complete" || held.owner !== owner) return false;
        claims.set(key(challengeNonce), "complete");
        completed.push(key(challengeNonce));
        if (completed.length > (options.completedClaimsKept ?? EMBEDDED_COMPLETED_CLAIMS_KEPT)) {
          const oldest = completed.shift();
          if (oldest !== undefined && claims.get(oldest) === "complete") claims.delete(oldest);
        }
        return true;
      },
    },
    finalizeQueue: {
      enqueue: async (challengeNonce) => {
        if (!queue.has(key(challengeNonce))) queue.set(key(challengeNonce), undefined);
      },
      lease: async (owner, limit, leaseMs) => {
        const leased: Hex[] = [];
        for (const [nonce, lease] of queue) {
          if (leased.length >= limit) break;
          if (lease !== undefined && lease.until > now()) continue;
          queue.set(nonce, { owner, until: now() + leaseMs });
          leased.push(nonce as Hex);
        }
        return leased;
      },
      release: async (challengeNonce, owner) => {
        const lease = queue.get(key(challengeNonce));
        if (lease === undefined || lease.owner !== owner) return;
        // To the back of the queue (a Map keeps insertion order): a batch of payments not due yet must not
        // hold back the ones behind it.
        queue.delete(key(challengeNonce));
        queue.set(key(challengeNonce), undefined);
      },
      complete: async (challengeNonce, owner) => {
        const lease = queue.get(key(challengeNonce));
        if (lease === undefined || lease.owner !== owner) return false;
        queue.delete(key(challengeNonce));
        return true;
      },
    },
    relayNonces: {
      withNextNonce: (chainId, account, pendingNonce, broadcast) => {
        const slot = `${chainId}:${key(account)}`;
        const queue = <R>(step: () => Promise<R>): Promise<R> => {
          const run = (nonceTails.get(slot) ?? Promise.resolve()).then(step);
          nonceTails.set(
            slot,
            run.then(
              () => undefined,
              () => undefined,
            ),
          );
          return run;
        };
        const turn = queue(async () => {
          // This process alone sends with the key, so after a broadcast went out it knows the next nonce and
          // skips the node round trip; a failure may have left the node anywhere, so the next turn reads it.
          const known = nonceKnown.has(slot) ? nonces.get(slot) : undefined;
          const nonce = known ?? Math.max(await pendingNonce(), nonces.get(slot) ?? 0);
          nonceKnown.delete(slot);
          const started = startBroadcast(broadcast, nonce);
          await started.turnOver;
          nonces.set(slot, nonce + 1);
          nonceKnown.add(slot);
          return { nonce, started };
        });
        return turn.then(async ({ nonce, started }) => {
          try {
            return await started.outcome;
          } catch (error) {
            // Failed after it was sent: the nonce is the next one again (read afresh), unless a later broadcast
            // went out meanwhile; then the key's monitor fills the gap.
            if (started.wasSent()) {
              await queue(async () => {
                if (nonces.get(slot) !== nonce + 1) return;
                nonces.set(slot, nonce);
                nonceKnown.delete(slot);
              });
            }
            throw error;
          }
        });
      },
    },
    rateLimits: {
      take: async (rateKey, limit, windowMs) => {
        const slot = `${limit}/${windowMs}`;
        let limiter = limiters.get(slot);
        if (limiter === undefined) {
          limiter = new SlidingWindowRateLimiter({ limit, windowMs });
          limiters.set(slot, limiter);
        }
        return limiter.take(rateKey);
      },
    },
    witnessState: witnessStateFile(options.journalPath === null ? null : `${options.journalPath}.witnesses`),
    history: paymentHistoryFileStore,
    openBurnAddressStock: async (binding) => (options.journalPath === null ? undefined : BurnAddressStockFile.open(`${options.journalPath}.stock`, binding)),
    // A journal this process can no longer write takes no payment it could lose.
    ping: async () => {
      if (options.journalPath !== null) await access(options.journalPath, constants.W_OK);
    },
    close: () => journal.close(),
  };
}

/** A broadcast started inside a key's turn. */
type StartedBroadcast<T> = {
  /** Settles when the transaction is on its way or the broadcast is over; rejects when it threw before it was sent. */
  turnOver: Promise<void>;
  /** The broadcast's own result. */
  outcome: Promise<T>;
  /** Whether the broadcast said its transaction was sent. */
  wasSent: () => boolean;
};

/** Starts `broadcast` on `nonce` inside a turn, noting whether and when it says its transaction was sent. */
function startBroadcast<T>(broadcast: (nonce: number, sent: () => void) => Promise<T>, nonce: number): StartedBroadcast<T> {
  let sent = false;
  let onSent = () => {};
  const sentSignal = new Promise<void>((resolve) => {
    onSent = resolve;
  });
  const outcome = new Promise<T>((resolve) =>
    resolve(
      broadcast(nonce, () => {
        sent = true;
        onSent();
      }),
    ),
  );
  return { turnOver: Promise.race([sentSignal, outcome.then(() => undefined)]), outcome, wasSent: () => sent };
}
