/**
 * Which journal records a compaction keeps. The journal is read whole at every start, so it must not grow with
 * every payment ever made: a payment's records go once nothing can still happen to it and nobody can still ask
 * about it, i.e. once it is closed (finalized with its fee settled, failed, or never paid, with no open permit
 * intent) and its challenge is past `expiresAt + settlement.expired_challenge_retention_seconds`. Until then an
 * identical re-send still gets its answer and a late burn is still recognised. A late burn stays for
 * `settlement.late_burn_retention_days` after it was recorded (its recovery is manual and the operator lists
 * it), then goes to the archive like any closed payment.
 */
import { paymentNonceOf, type JournaledChallenge, type JournalRecord } from "./journalRecord.js";

/** The records to keep (in their order) and the ones to archive. */
export type CompactionPlan = { keep: JournalRecord[]; drop: JournalRecord[] };

/** How long records stay after their payment closed. */
export type CompactionRetention = {
  /** `settlement.expired_challenge_retention_seconds`, counted from the challenge's expiry. */
  retentionSeconds: number;
  /** `settlement.late_burn_retention_days` in seconds, counted from the late burn's record; unset keeps late burns. */
  lateBurnRetentionSeconds?: number | undefined;
};

type Payment = { expiresAt: number | undefined; accepted: boolean; closed: boolean; openIntent: boolean; lateBurnAt: number | undefined };

/** Splits `records` into what stays in the journal and what may be archived, as of `now` (unix seconds). */
export function planCompaction(records: readonly JournalRecord[], now: number, retention: CompactionRetention): CompactionPlan {
  const { retentionSeconds, lateBurnRetentionSeconds } = retention;
  const payments = new Map<string, Payment>();
  const paymentOf = (challengeNonce: string): Payment => {
    const key = challengeNonce.toLowerCase();
    let payment = payments.get(key);
    if (payment === undefined) {
      payment = { expiresAt: undefined, accepted: false, closed: false, openIntent: false, lateBurnAt: undefined };
      payments.set(key, payment);
    }
    return payment;
  };
  const finalized = new Set<string>();
  const feeSettled = new Set<string>();
  for (const record of records) {
    const payment = paymentOf(nonceOf(record));
    const challenge = challengeOf(record);
    if (challenge) payment.expiresAt = challenge.expiresAt;
    switch (record.type) {
      case "intent":
        if (!payment.accepted) payment.openIntent = true;
        break;
      case "intent_released":
        payment.openIntent = false;
        break;
      case "accepted":
        payment.accepted = true;
        payment.openIntent = false;
        break;
      case "finalized":
        finalized.add(nonceOf(record).toLowerCase());
        break;
      case "mint_reorged":
        finalized.delete(nonceOf(record).toLowerCase());
        break;
      case "fee_settled":
        feeSettled.add(nonceOf(record).toLowerCase());
        break;
      case "failed":
        payment.closed = true;
        payment.openIntent = false;
        break;
      case "late_burn":
        payment.lateBurnAt = Math.max(payment.lateBurnAt ?? 0, record.at);
        break;
      default:
        break;
    }
  }
  for (const [key, payment] of payments) {
    if (finalized.has(key) && feeSettled.has(key)) payment.closed = true;
    if (!payment.accepted && !payment.openIntent) payment.closed = true;
  }

  const keep: JournalRecord[] = [];
  const drop: JournalRecord[] = [];
  const archivable = (challengeNonce: string): boolean => {
    const payment = paymentOf(challengeNonce);
    const pastRetention = payment.expiresAt !== undefined && payment.expiresAt + retentionSeconds < now;
    const lateBurnKept = payment.lateBurnAt !== undefined && (lateBurnRetentionSeconds === undefined || payment.lateBurnAt + lateBurnRetentionSeconds >= now);
    return payment.closed && !payment.openIntent && !lateBurnKept && pastRetention;
  };
  for (const record of records) {
    // An aggregated sweep belongs to every payment it covers: it goes with the last of them.
    const goes = record.type === "fee_sweep_batch" ? record.challengeNonces.every(archivable) : archivable(nonceOf(record));
    if (goes) drop.push(record);
    else keep.push(record);
  }
  return { keep, drop };
}

function challengeOf(record: JournalRecord): JournaledChallenge | undefined {
  switch (record.type) {
    case "challenge":
    case "intent":
    case "accepted":
    case "late_burn":
      return record.challenge;
    default:
      return undefined;
  }
}

function nonceOf(record: JournalRecord): string {
  return paymentNonceOf(record) ?? "";
}
