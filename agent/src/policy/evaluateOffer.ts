import { type Offer, toNetwork } from "@svc/scheme";

import { type AmountFormat, BASE_UNITS_FORMAT } from "../payment/amountFormat.js";
import type { DeclineReason } from "./declineReasons.js";
import { offerUsableUntil } from "./offerUsableUntil.js";
import type { Policy } from "./policy.js";
import { limitsForToken } from "./tokenLimits.js";

/** The policy's verdict on one offer, before the ledger checks the total cap. */
export type OfferEvaluation = { kind: "allowed"; needsApproval: boolean } | { kind: "declined"; reason: DeclineReason; message: string };

/**
 * Applies every per-offer rule: network pin, token pin, per-payment cap, the permit path's need for
 * `extra.helper`, and enough offer life left to pay (messages give amounts in `format`); then says whether the amount needs a human. The total
 * cap is not here: only the ledger, under its lock, can check it without a race. `decimals` are the
 * token's as read on-chain; without them a limit written in token units cannot apply and the offer is declined.
 *
 * @example
 * const verdict = evaluateOffer(policy, offer, Date.now());
 * if (verdict.kind === "declined") console.error(verdict.message);
 */
export function evaluateOffer(
  policy: Policy,
  offer: Offer,
  nowMs: number,
  format: AmountFormat = BASE_UNITS_FORMAT,
  decimals: number | undefined = undefined,
): OfferEvaluation {
  const { amount } = offer;
  const network = toNetwork(offer.chainId);
  if (network !== policy.allowedNetwork) {
    return declined("network_not_allowed", `the offer is on ${network}; only ${policy.allowedNetwork} is allowed (SVC_ALLOWED_NETWORK)`);
  }
  if (policy.allowedToken !== undefined && offer.asset.toLowerCase() !== policy.allowedToken.toLowerCase()) {
    return declined("token_not_allowed", `the offer is in token ${offer.asset}; only ${policy.allowedToken} is allowed (SVC_ALLOWED_TOKEN)`);
  }
  const limits = limitsForToken(policy, decimals);
  if (limits === undefined) {
    return declined(
      "token_decimals_unknown",
      `the token ${offer.asset}'s decimals could not be read from SVC_RPC_URL, so limits written in token units cannot be applied`,
    );
  }
  if (limits.maxPerPayment !== undefined && amount > limits.maxPerPayment) {
    return declined("above_max_per_payment", `the quote of ${format(amount)} is above SVC_MAX_PER_PAYMENT (${format(limits.maxPerPayment)})`);
  }
  if (policy.mode === "permit" && (offer.helper === undefined || offer.deadline === undefined)) {
    return declined("permit_unavailable", "the offer has no gasless path (extra.helper) and SVC_MODE is permit; the agent never falls back to paying gas");
  }
  const secondsLeft = Math.floor(offer.expiresAt - nowMs / 1000);
  if (nowMs > offerUsableUntil(policy.mode, offer.expiresAt)) {
    return declined(
      "offer_expiring",
      secondsLeft <= 0 ? "the offer has expired" : `the offer expires in ${secondsLeft} s, too soon to pay in ${policy.mode} mode`,
    );
  }
  const needsApproval = limits.approveAbove !== undefined && amount > limits.approveAbove;
  return { kind: "allowed", needsApproval };
}

function declined(reason: DeclineReason, message: string): OfferEvaluation {
  return { kind: "declined", reason, message };
}
