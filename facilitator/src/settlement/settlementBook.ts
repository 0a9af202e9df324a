/**
 * The settlement state of this process: accepted / finalized / failed entries, permit intents not yet
 * resolved, late burns, and which burn transaction belongs to which challenge. It is
 * rebuilt from the journal at start, so an identical re-send after a restart still gets its accepted result
 * and a burn transaction can never be claimed by a second challenge. Settles in flight are not state of the
 * journal: the SettlementCoordinator holds them.
 */
import type { Hex } from "viem";
import type { ChallengeRecord } from "../challenges/challengeRecord.js";
import { fromJournaledChallenge } from "../journal/journaledChallenge.js";
import type { AcceptedRecord, IntentRecord, JournaledChallenge, JournalRecord, LateBurnRecord, RelayRecord } from "../journal/journalRecord.js";

/** A journal record as the book holds it: its challenge decoded once, as it is folded, into the challenge record. */
export type WithChallengeRecord<R extends { challenge: JournaledChallenge }> = { [K in keyof R as K extends "challenge" ? never : K]: R[K] } & {
  challenge: ChallengeRecord;
};

/** An unresolved permit intent, its challenge decoded. */
export type OpenIntent = WithChallengeRecord<IntentRecord>;

/** A burn that landed after its offer expired, its challenge decoded. */
export type LateBurn = WithChallengeRecord<LateBurnRecord>;

/**
 * A signed custodial fee sweep (aggregated, or one payment's from an older journal) and the payments it covers.
 * `earlierTxHashes` are the hashes it replaced on the same nonce (fee bumps): any of them may be the one mined.
 */
export type FeeSweep = { challengeNonces: Hex[]; txHash: Hex; rawTransaction: Hex; amount: string; at: number; earlierTxHashes?: Hex[] };

/** A journaled relay, with the hashes it replaced on the same nonce (fee bumps): any of them may be the one mined. */
export type JournaledRelay = RelayRecord & { earlierTxHashes: Hex[] };

/** One accepted payment and what happened to it since. */
export type SettlementEntry = WithChallengeRecord<AcceptedRecord> & {
  state: "accepted" | "finalized" | "failed";
  finalizedAt?: number;
  mintTxHash?: Hex;
  failedAt?: number;
  reason?: string;
  /** The signed custodial fee sweep covering this payment, journaled before it was broadcast. */
  feeSweep?: FeeSweep;
  /** Set once the fee reached its recipient (or there was none to pay). */
  feeSettledAt?: number;
  /**
   * Set (in memory, by the reorg watch) while the burn is on no chain the node knows, neither mined nor
   * pending: an identical re-send is answered `pending_burn`, and nothing is minted from it.
   */
  burnMissingSince?: number;
};

const key = (hex: string) => hex.toLowerCase();

/**
 * The `failed` reason of a payment whose burn a reorg removed for good (finalize's `evidence_vanished`): the
 * one failure a re-send of the payment hears as such (`burn_receipt_missing`), since its burn is gone.
 */
export const BURN_VANISHED_REASON = "evidence_vanished";

/** In-memory settlement state, folded from journal records. */
export class SettlementBook {
  private readonly entries = new Map<string, SettlementEntry>();
  private readonly intents = new Map<string, OpenIntent>();
  private readonly relays = new Map<string, JournaledRelay>();
  private readonly burnTxOwners = new Map<string, string>();
  readonly lateBurns: LateBurn[] = [];
  /** When the latest fee sweep or distribution was journaled (unix seconds): the start of the current sweep interval. */
  lastFeeSweepAt: number | undefined;

  /** Folds one journal record (at restore, and after each append). */
  apply(record: JournalRecord): void {
    switch (record.type) {
      case "challenge":
        // Issued offers live in the challenge store; the book only folds what happened to payments.
        return;
      case "relay": {
        if (!this.intents.has(key(record.challengeNonce))) return;
        // The latest relay is the one to re-broadcast; the ones it replaced stay known, since any may be mined.
        const earlier = this.relays.get(key(record.challengeNonce));
        const earlierTxHashes =
          earlier === undefined || earlier.txHash === record.txHash ? (earlier?.earlierTxHashes ?? []) : [...earlier.earlierTxHashes, earlier.txHash];
        this.relays.set(key(record.challengeNonce), { ...record, earlierTxHashes });
        return;
      }
      case "intent_released":
        this.intents.delete(key(record.challengeNonce));
        this.relays.delete(key(record.challengeNonce));
        return;
      case "intent":
        if (!this.entries.has(key(record.challenge.challengeNonce))) this.intents.set(key(record.challenge.challengeNonce), decodeChallenge(record));
        return;
      case "accepted":
        this.intents.delete(key(record.challenge.challengeNonce));
        this.relays.delete(key(record.challenge.challengeNonce));
        this.entries.set(key(record.challenge.challengeNonce), { ...decodeChallenge(record), state: "accepted" });
        this.burnTxOwners.set(key(record.burnTxHash), key(record.challenge.challengeNonce));
        return;
      case "finalized": {
        const entry = this.entries.get(key(record.challengeNonce));
        if (entry) Object.assign(entry, { state: "finalized", finalizedAt: record.at, mintTxHash: record.mintTxHash });
        return;
      }
      case "burn_reorged": {
        const entry = this.entries.get(key(record.challengeNonce));
        if (!entry) return;
        entry.burnTxHash = record.burnTxHash;
        entry.burnMissingSince = undefined;
        this.burnTxOwners.set(key(record.burnTxHash), key(record.challengeNonce));
        return;
      }
      case "mint_reorged": {
        const entry = this.entries.get(key(record.challengeNonce));
        if (entry?.state !== "finalized") return;
        entry.state = "accepted";
        entry.mintTxHash = undefined;
        entry.finalizedAt = undefined;
        return;
      }
      case "failed": {
        const entry = this.entries.get(key(record.challengeNonce));
        if (entry) Object.assign(entry, { state: "failed", failedAt: record.at, reason: record.reason });
        this.intents.delete(key(record.challengeNonce));
        this.relays.delete(key(record.challengeNonce));
        return;
      }
      case "fee_sweep":
        this.foldFeeSweep({ ...record, challengeNonces: [record.challengeNonce], txHash: record.txHash, rawTransaction: record.rawTransaction as Hex });
        return;
      case "fee_sweep_batch":
        this.foldFeeSweep({ ...record, challengeNonces: record.challengeNonces, txHash: record.txHash, rawTransaction: record.rawTransaction as Hex });
        return;
      case "fee_settled": {
        const entry = this.entries.get(key(record.challengeNonce));
        if (entry) entry.feeSettledAt = record.at;
        // A splitter distribution journals no sweep: its settled records (with a transaction) start the interval.
        if (record.txHash !== undefined) this.lastFeeSweepAt = Math.max(this.lastFeeSweepAt ?? 0, record.at);
        return;
      }
      case "late_burn":
        this.lateBurns.push(decodeChallenge(record));
        this.burnTxOwners.set(key(record.burnTxHash), key(record.challenge.challengeNonce));
        return;
    }
  }

  private foldFeeSweep(record: FeeSweep): void {
    const sweep: FeeSweep = {
      challengeNonces: record.challengeNonces,
      txHash: record.txHash,
      rawTransaction: record.rawTransaction,
      amount: record.amount,
      at: record.at,
    };
    // A sweep journaled again for the same payments and amount is its fee-bumped replacement: the hashes it
    // replaced are kept, so a replaced sweep that was mined after all is never taken for void (fees paid twice).
    const first = this.entries.get(key(sweep.challengeNonces[0] ?? "0x"))?.feeSweep;
    if (first && first.txHash !== sweep.txHash && first.amount === sweep.amount && sameNonces(first.challengeNonces, sweep.challengeNonces)) {
      sweep.earlierTxHashes = [...(first.earlierTxHashes ?? []), first.txHash];
    }
    for (const challengeNonce of sweep.challengeNonces) {
      const entry = this.entries.get(key(challengeNonce));
      if (entry) entry.feeSweep = sweep;
    }
    this.lastFeeSweepAt = Math.max(this.lastFeeSweepAt ?? 0, sweep.at);
  }

  /** The accepted (or later) entry of a challenge. */
  entry(challengeNonce: Hex): SettlementEntry | undefined {
    return this.entries.get(key(challengeNonce));
  }

  /** The unresolved permit intent of a challenge (a crash between broadcast and accept). */
  intent(challengeNonce: Hex): OpenIntent | undefined {
    return this.intents.get(key(challengeNonce));
  }

  /** The journaled (signed, maybe broadcast) relay of an unresolved intent: the latest, with the hashes it replaced. */
  relay(challengeNonce: Hex): JournaledRelay | undefined {
    return this.relays.get(key(challengeNonce));
  }

  /** Every unresolved intent, for reconciliation at start. */
  openIntents(): OpenIntent[] {
    return [...this.intents.values()];
  }

  /** The challenge a burn transaction already settled (or was refused as late) for, if any. */
  burnTxOwner(burnTxHash: Hex): string | undefined {
    return this.burnTxOwners.get(key(burnTxHash));
  }

  /** Every entry, optionally only those in `state`. */
  list(state?: SettlementEntry["state"]): SettlementEntry[] {
    const all = [...this.entries.values()];
    return state === undefined ? all : all.filter((entry) => entry.state === state);
  }
}

// The journal's edge inside the book: each record's challenge is decoded once, when it is folded.
function decodeChallenge<R extends { challenge: JournaledChallenge }>(record: R): WithChallengeRecord<R> {
  return { ...record, challenge: fromJournaledChallenge(record.challenge) };
}

function sameNonces(a: readonly Hex[], b: readonly Hex[]): boolean {
  return a.length === b.length && a.every((nonce, index) => key(nonce) === key(b[index] ?? ""));
}
