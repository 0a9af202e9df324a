/**
 * Rebuilds the offer's requirements from what the facilitator itself recorded, so signatures are always
 * checked against the trusted offer rather than the echoed one (and legacy bodies, which carry no
 * requirements, are checked the same way).
 */
import { SCHEME, type PaymentRequirements } from "@svc/scheme";
import type { ChallengeView } from "./challengeView.js";

/** The `PaymentRequirements` the facilitator issued for `record`. */
export function offerRequirements(record: ChallengeView, now: number): PaymentRequirements {
  return {
    scheme: SCHEME,
    network: record.network,
    asset: record.asset,
    amount: record.amount.toString(),
    payTo: record.payTo,
    maxTimeoutSeconds: Math.max(0, record.expiresAt - now),
    extra: {
      challengeNonce: record.challengeNonce,
      expiresAt: record.expiresAt,
      ...(record.helper === undefined ? {} : { helper: record.helper }),
      ...(record.deadline === undefined ? {} : { deadline: record.deadline }),
      ...(record.quote.extraFee === undefined ? {} : { fee: record.quote.extraFee }),
    },
  };
}
