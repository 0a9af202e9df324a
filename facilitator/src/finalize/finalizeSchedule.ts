/**
 * The finalize schedule (`[finalize]`): when an accepted payment may be minted and in which order, so a
 * chain observer cannot pair a mint with the burn right before it. A payment becomes due at its journaled
 * `accepted.at` plus a delay in [`min_delay_seconds`, `max_delay_seconds`]; once due it is minted only while
 * at least `min_anonymity_set` accepted, unminted payments of the same amount that are each at least
 * `min_delay_seconds` old wait (itself included), and otherwise once `max_delay_seconds` have passed, marked
 * as released alone. The mints of one pass go out in a keyed order unrelated to acceptance order.
 *
 * Why only mature payments count: an observer who knows `min_delay_seconds` (the README publishes it) rules
 * out every burn younger than that as the source of a mint. A crowd padded with such burns would release a
 * mint whose only plausible source is the one mature burn of its amount, linked with certainty.
 *
 * Why derived rather than journaled: the delay and the order are keyed hashes of the challengeNonce under a
 * key derived from the burn seed (itself derived from `SVC_TREASURY_PK`). `accepted.at` is already in the
 * journal, so after a crash, or on another instance sharing the same treasury, the same schedule comes back
 * with no extra record, no extra fsync on the settle path and no window in which a payment is accepted but
 * its schedule not yet written. The key never leaves the process, so neither a payer (who knows its own
 * challengeNonce) nor an observer can predict when or in which order a payment is minted. Delays are whole
 * seconds on the journal's clock (`at` is unix seconds).
 */
import { concat, hexToBigInt, keccak256, toHex, type Hex } from "viem";
import type { ChallengeRecord } from "../challenges/challengeRecord.js";
import type { FinalizeConfig } from "../config/facilitatorConfigSchema.js";

/** Domain tag hashed in front of the burn seed; a new version reshuffles every schedule. */
export const FINALIZE_SCHEDULE_TAG = "svc-zerc20/finalize-schedule/v1";

const DELAY_LABEL = toHex("delay");
const ORDER_LABEL = toHex("order");

/** The schedule's secret key: a hash of the burn seed under its own tag, so it reveals nothing about the seed. */
export function deriveScheduleKey(seed: Hex): Hex {
  return keccak256(concat([toHex(FINALIZE_SCHEDULE_TAG), seed]));
}

/** The schedule one facilitator applies: its policy and its secret key. */
export type FinalizeSchedule = { policy: FinalizeConfig; key: Hex };

/** What the schedule reads of a waiting payment (a settlement entry has these fields). */
export type ScheduledPayment = { challenge: Pick<ChallengeRecord, "challengeNonce" | "amount">; at: number };

/** What the order and the due time read of a payment: its challenge nonce and when it was accepted. */
export type OrderedPayment = { challenge: Pick<ChallengeRecord, "challengeNonce">; at: number };

/** The payment's delay in whole seconds, in [min_delay_seconds, max_delay_seconds], fixed by the key and the challengeNonce. */
export function finalizeDelaySeconds(schedule: FinalizeSchedule, challengeNonce: Hex): number {
  const { min_delay_seconds: min, max_delay_seconds: max } = schedule.policy;
  if (max <= min) return min;
  const draw = hexToBigInt(keccak256(concat([schedule.key, DELAY_LABEL, challengeNonce])));
  return min + Number(draw % BigInt(max - min + 1));
}

/** When (unix seconds) the payment becomes due. */
export function dueAt(schedule: FinalizeSchedule, payment: OrderedPayment): number {
  return payment.at + finalizeDelaySeconds(schedule, payment.challenge.challengeNonce);
}

/** The payment's place in a pass: a keyed hash, so the order of mints says nothing about the order of burns. */
export function mintOrderKey(schedule: FinalizeSchedule, challengeNonce: Hex): bigint {
  return hexToBigInt(keccak256(concat([schedule.key, ORDER_LABEL, challengeNonce])));
}

/** Whether the payment has waited at least `min_delay_seconds` at `now`: only such payments count toward k. */
export function isMature(schedule: FinalizeSchedule, payment: ScheduledPayment, now: number): boolean {
  return now >= payment.at + schedule.policy.min_delay_seconds;
}

/**
 * One payment the schedule releases now. `releasedAlone`: fewer than `min_anonymity_set` mature payments of
 * its amount wait, so it goes out only because `max_delay_seconds` have passed and an observer who knows the
 * policy may link it to its burn.
 */
export type ScheduledRelease<T> = { payment: T; releasedAlone: boolean };

/**
 * The payments of `waiting` (every accepted, unminted payment of this deployment) that may be minted at
 * `now`, in mint order: due with at least `min_anonymity_set` mature payments of its amount waiting (so every
 * such mint could have come from any of them, for an observer who knows the policy), or past
 * `max_delay_seconds` (released alone when that crowd is smaller).
 */
export function scheduledReleases<T extends ScheduledPayment>(schedule: FinalizeSchedule, waiting: readonly T[], now: number): ScheduledRelease<T>[] {
  const crowd = new Map<bigint, number>();
  for (const payment of waiting) {
    if (isMature(schedule, payment, now)) crowd.set(payment.challenge.amount, (crowd.get(payment.challenge.amount) ?? 0) + 1);
  }
  const { max_delay_seconds: max, min_anonymity_set: k } = schedule.policy;
  const releases: ScheduledRelease<T>[] = [];
  for (const payment of waiting) {
    const crowded = (crowd.get(payment.challenge.amount) ?? 0) >= k;
    // Due implies mature (the delay is at least min_delay_seconds), so a crowded due payment counts itself.
    if (now >= dueAt(schedule, payment) && crowded) releases.push({ payment, releasedAlone: false });
    else if (now >= payment.at + max) releases.push({ payment, releasedAlone: true });
  }
  const order = new Map(releases.map((release) => [release.payment, release]));
  return sortByMintOrder(
    schedule,
    releases.map((release) => release.payment),
  ).flatMap((payment) => order.get(payment) ?? []);
}

/** The payments {@link scheduledReleases} releases at `now`, in mint order. */
export function releasablePayments<T extends ScheduledPayment>(schedule: FinalizeSchedule, waiting: readonly T[], now: number): T[] {
  return scheduledReleases(schedule, waiting, now).map((release) => release.payment);
}

/** `payments` sorted by {@link mintOrderKey}. */
export function sortByMintOrder<T extends OrderedPayment>(schedule: FinalizeSchedule, payments: readonly T[]): T[] {
  return payments
    .map((payment) => ({ payment, order: mintOrderKey(schedule, payment.challenge.challengeNonce) }))
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0))
    .map(({ payment }) => payment);
}
