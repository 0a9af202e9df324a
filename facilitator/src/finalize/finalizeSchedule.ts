/**
 * The finalize schedule (`[finalize]`): when an accepted payment may be minted and in which order, so a
 * chain observer cannot pair a mint with the burn right before it. A payment becomes due at its journaled
 * `accepted.at` plus a delay in [`min_delay_seconds`, `max_delay_seconds`]. Due payments are minted only while
 * at least `min_anonymity_set` accepted, unminted payments of the same amount that are each at least
 * `min_delay_seconds` old wait, and then as many of that crowd go as are due, drawn at random from it (so a
 * mint is no likelier to be the oldest burn's); otherwise a payment goes once `max_delay_seconds` have passed,
 * marked as released alone. The mints of one pass go out in a keyed order unrelated to acceptance order.
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
const PICK_LABEL = toHex("pick");

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

// A payment's delay and order draws never change, but every pass reads them for every waiting payment: kept
// per schedule and nonce, so a pass over a backlog hashes only the payments it has not seen. Cleared whole at
// the bound (the next passes hash their payments once more).
const FIXED_DRAWS_KEPT = 65_536;
const fixedDraws = new WeakMap<FinalizeSchedule, Map<string, bigint>>();

function fixedDraw(schedule: FinalizeSchedule, label: Hex, challengeNonce: Hex): bigint {
  let draws = fixedDraws.get(schedule);
  if (draws === undefined || draws.size >= FIXED_DRAWS_KEPT) {
    draws = new Map();
    fixedDraws.set(schedule, draws);
  }
  const id = `${label}:${challengeNonce.toLowerCase()}`;
  let draw = draws.get(id);
  if (draw === undefined) {
    draw = hexToBigInt(keccak256(concat([schedule.key, label, challengeNonce])));
    draws.set(id, draw);
  }
  return draw;
}

/** The payment's delay in whole seconds, in [min_delay_seconds, max_delay_seconds], fixed by the key and the challengeNonce. */
export function finalizeDelaySeconds(schedule: FinalizeSchedule, challengeNonce: Hex): number {
  const { min_delay_seconds: min, max_delay_seconds: max } = schedule.policy;
  if (max <= min) return min;
  return min + Number(fixedDraw(schedule, DELAY_LABEL, challengeNonce) % BigInt(max - min + 1));
}

/** When (unix seconds) the payment becomes due. */
export function dueAt(schedule: FinalizeSchedule, payment: OrderedPayment): number {
  return payment.at + finalizeDelaySeconds(schedule, payment.challenge.challengeNonce);
}

/** The payment's place in a pass: a keyed hash, so the order of mints says nothing about the order of burns. */
export function mintOrderKey(schedule: FinalizeSchedule, challengeNonce: Hex): bigint {
  return fixedDraw(schedule, ORDER_LABEL, challengeNonce);
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
 * `now`, in mint order. Every payment past `max_delay_seconds` goes (released alone when fewer than
 * `min_anonymity_set` mature payments of its amount wait). Below that, an amount whose mature crowd reaches
 * `min_anonymity_set` releases as many payments as have fallen due and not yet been matched by a mint, but which
 * members go is a fresh keyed draw over the whole mature crowd at each `now` ({@link crowdPickKey}), not the
 * due payments themselves. `minted` are the payments of this deployment minted within the last
 * `max_delay_seconds` (by `at`): a member minted before its own due time took an earlier due payment's turn,
 * and its own due time then releases nothing more, so mints before `max_delay_seconds` never outrun due times.
 *
 * Why a draw rather than the due payments: a payment becomes due a random delay after it was accepted, so
 * among the mature payments of an amount the older ones are more often due. Minting the due ones let an
 * observer who pairs each mint with the oldest waiting burn of its amount (FIFO) link far above chance. A
 * draw over the mature crowd makes every member equally likely to be the one minted, whatever its age, so
 * FIFO links at chance; the due times still set how many go and when, and `max_delay_seconds` still bounds
 * every wait.
 */
export function scheduledReleases<T extends ScheduledPayment>(
  schedule: FinalizeSchedule,
  waiting: readonly T[],
  now: number,
  minted: readonly ScheduledPayment[] = [],
): ScheduledRelease<T>[] {
  const { max_delay_seconds: max, min_anonymity_set: k } = schedule.policy;
  const inTime = (payment: ScheduledPayment) => now < payment.at + max;
  const isDue = (payment: ScheduledPayment) => now >= dueAt(schedule, payment);
  const byAmount = new Map<bigint, T[]>();
  for (const payment of waiting) {
    if (!isMature(schedule, payment, now)) continue;
    const crowd = byAmount.get(payment.challenge.amount) ?? [];
    crowd.push(payment);
    byAmount.set(payment.challenge.amount, crowd);
  }
  const releases: ScheduledRelease<T>[] = [];
  for (const [amount, crowd] of byAmount) {
    const crowded = crowd.length >= k;
    for (const payment of crowd) if (!inTime(payment)) releases.push({ payment, releasedAlone: !crowded });
    if (!crowded) continue;
    const members = crowd.filter(inTime);
    const recent = minted.filter((payment) => payment.challenge.amount === amount && inTime(payment));
    const turns = members.filter(isDue).length + recent.filter(isDue).length - recent.length;
    const drawn = members
      .map((payment) => ({ payment, draw: crowdPickKey(schedule, payment.challenge.challengeNonce, now) }))
      .sort((a, b) => (a.draw < b.draw ? -1 : a.draw > b.draw ? 1 : 0))
      .slice(0, Math.max(0, turns));
    for (const { payment } of drawn) releases.push({ payment, releasedAlone: false });
  }
  const order = new Map(releases.map((release) => [release.payment, release]));
  return sortByMintOrder(
    schedule,
    releases.map((release) => release.payment),
  ).flatMap((payment) => order.get(payment) ?? []);
}

/** The payments {@link scheduledReleases} releases at `now`, in mint order. */
export function releasablePayments<T extends ScheduledPayment>(
  schedule: FinalizeSchedule,
  waiting: readonly T[],
  now: number,
  minted: readonly ScheduledPayment[] = [],
): T[] {
  return scheduledReleases(schedule, waiting, now, minted).map((release) => release.payment);
}

/**
 * A mature payment's draw in its crowd at `now`: a keyed hash of its challengeNonce and the second, so each
 * pass draws afresh (no payment is always last) and two instances sharing the treasury draw alike.
 */
export function crowdPickKey(schedule: FinalizeSchedule, challengeNonce: Hex, now: number): bigint {
  return hexToBigInt(keccak256(concat([schedule.key, PICK_LABEL, challengeNonce, toHex(now, { size: 8 })])));
}

/** `payments` sorted by {@link mintOrderKey}. */
export function sortByMintOrder<T extends OrderedPayment>(schedule: FinalizeSchedule, payments: readonly T[]): T[] {
  return payments
    .map((payment) => ({ payment, order: mintOrderKey(schedule, payment.challenge.challengeNonce) }))
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0))
    .map(({ payment }) => payment);
}
