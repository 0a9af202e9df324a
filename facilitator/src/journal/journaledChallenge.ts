/**
 * The journal's codec for an issued challenge: the offer and its pricing as decimal strings on disk, bigints in
 * memory. No burn secret is written; a challenge read back has none (it re-derives from the seed and the nonce).
 */
import { decodeOfferFee, offerExtra, toNetwork } from "@svc/scheme";

import type { ChallengeRecord } from "../challenges/challengeRecord.js";
import type { JournaledChallenge } from "./journalRecord.js";

/** The journal form of an issued challenge (its burn secret, if any, is left out). */
export function toJournaledChallenge(challenge: Omit<ChallengeRecord, "burn">): JournaledChallenge {
  // The offer's optional keys come from the one place that writes them; on disk the payer fee is `extraFee`,
  // because `fee` is the facilitator's whole fee there.
  const { challengeNonce, expiresAt, fee: extraFee, ...permitPath } = offerExtra(challenge);
  return {
    challengeNonce,
    protocol: challenge.protocol,
    network: toNetwork(challenge.chainId),
    chainId: challenge.chainId,
    asset: challenge.asset,
    payTo: challenge.payTo,
    amount: challenge.amount.toString(),
    fee: challenge.quote.fee.toString(),
    payout: challenge.quote.payout.toString(),
    ...(extraFee === undefined ? {} : { extraFee }),
    ...permitPath,
    issuedAt: challenge.issuedAt,
    expiresAt,
  };
}

/** An issued challenge back from its journal form, without a burn secret. */
export function fromJournaledChallenge(journaled: JournaledChallenge): ChallengeRecord {
  const amount = BigInt(journaled.amount);
  const fee = journaled.extraFee === undefined ? undefined : decodeOfferFee(journaled.extraFee);
  return {
    challengeNonce: journaled.challengeNonce,
    protocol: journaled.protocol,
    chainId: journaled.chainId,
    asset: journaled.asset,
    payTo: journaled.payTo,
    amount,
    expiresAt: journaled.expiresAt,
    helper: journaled.helper,
    deadline: journaled.deadline,
    decimals: journaled.decimals,
    fee,
    quote: { amount, fee: BigInt(journaled.fee), payout: BigInt(journaled.payout), extraFee: fee },
    issuedAt: journaled.issuedAt,
    burn: undefined,
  };
}
