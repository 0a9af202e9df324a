/**
 * A challenge as settlement sees it: the issued offer without its burn secret. Settlement never needs the
 * secret (only the finalize loop does), so an offer restored from the journal after a restart is as good as
 * a live one for matching and signature checks.
 */
import type { ChallengeRecord } from "../challenges/challengeRecord.js";
import type { JournaledChallenge } from "../journal/journalRecord.js";

/** The offer half of a {@link ChallengeRecord}. */
export type ChallengeView = Omit<ChallengeRecord, "burn">;

/** The journal form of an offer (decimal strings, no secret). */
export function toJournaledChallenge(view: ChallengeView): JournaledChallenge {
  return {
    challengeNonce: view.challengeNonce,
    network: view.network,
    chainId: view.chainId,
    asset: view.asset,
    payTo: view.payTo,
    amount: view.amount.toString(),
    fee: view.quote.fee.toString(),
    payout: view.quote.payout.toString(),
    ...(view.quote.extraFee === undefined ? {} : { extraFee: view.quote.extraFee }),
    ...(view.helper === undefined ? {} : { helper: view.helper }),
    ...(view.deadline === undefined ? {} : { deadline: view.deadline }),
    issuedAt: view.issuedAt,
    expiresAt: view.expiresAt,
  };
}

/** The offer back from its journal form. */
export function fromJournaledChallenge(journaled: JournaledChallenge): ChallengeView {
  const amount = BigInt(journaled.amount);
  return {
    challengeNonce: journaled.challengeNonce,
    network: journaled.network,
    chainId: journaled.chainId,
    asset: journaled.asset,
    payTo: journaled.payTo,
    amount,
    quote: { amount, fee: BigInt(journaled.fee), payout: BigInt(journaled.payout), extraFee: journaled.extraFee },
    helper: journaled.helper,
    deadline: journaled.deadline,
    issuedAt: journaled.issuedAt,
    expiresAt: journaled.expiresAt,
  };
}
