import { fromOfferRequirements, type PaymentRequirements } from "@svc/scheme";
import { buildPaymentRequired } from "@svc/scheme/testing";

import { evaluateOffer } from "../policy/evaluateOffer.js";
import type { Policy } from "../policy/policy.js";
import type { Quote } from "../payment/quote.js";
import type { TokenInfo } from "../payment/tokenInfo.js";

/**
 * The quote `fetchQuote` would make of a 402 listing only `requirements`, evaluated under `policy` at `nowMs`,
 * with the token's symbol and decimals when the chain told them (limits in token units need them).
 */
export function buildQuote(requirements: PaymentRequirements, policy: Policy, nowMs: number = Date.now(), token?: TokenInfo): Quote {
  const offer = fromOfferRequirements(requirements);
  return {
    url: new URL("http://127.0.0.1:4021/weather"),
    paymentRequired: buildPaymentRequired({ accepts: [requirements] }),
    requirements,
    offer,
    evaluation: evaluateOffer(policy, offer, nowMs, undefined, token?.decimals),
    ...(token === undefined ? {} : { token }),
  };
}
