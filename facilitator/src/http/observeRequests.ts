import { BurnAddressUnavailableError, ChallengeCapacityError, ProfileDisabledError } from "../challenges/errors.js";
import { QuoteOutOfRangeError } from "../challenges/errors.js";
import { RateLimitExceededError } from "./errors.js";
import { HttpAnswerError } from "../errors/httpAnswerError.js";
import { NotReadyError } from "../readiness/errors.js";
import { type FacilitatorMetrics, type HistoryOperation, OFFER_REFUSAL, type OfferRefusal } from "../metrics/createFacilitatorMetrics.js";
import type { HttpMiddleware } from "./httpState.js";

const HISTORY_OPERATIONS: Readonly<Record<string, HistoryOperation>> = {
  "/history/auth/verify": "login",
  "/history/proofs/issue": "proof_issue",
  "/history/proofs/verify": "proof_verify",
  "/history/proofs/revoke": "proof_revoke",
};

/**
 * Counts the outcomes of `/challenge` (offer issued, or the refusal's reason), the rate-limit refusals by limit
 * and caller, and the history login and proof routes. Mounted inside the error boundary so it sees the error a refusal throws, and keyed on the
 * route the router matched, so case or a trailing slash cannot hide a request from the counts.
 */
export function observeRequests(metrics: FacilitatorMetrics): HttpMiddleware {
  return async (ctx, next) => {
    let failure: unknown;
    let failed = false;
    try {
      await next();
    } catch (error) {
      failed = true;
      failure = error;
    }
    // Who is being limited: the provider's configured name (bounded by the config), never a payer or an IP.
    if (failed && failure instanceof RateLimitExceededError) metrics.rateLimited(failure.scope, ctx.state.provider?.name ?? "anonymous");
    const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
    if (route === "/challenge" && ctx.method === "POST") {
      if (failed) metrics.offerRefused(offerRefusal(failure));
      else if (ctx.status === 200) metrics.offerIssued();
    }
    const history = typeof route === "string" ? HISTORY_OPERATIONS[route] : undefined;
    if (history !== undefined && ctx.method === "POST") {
      metrics.history(history, failed ? String(failure instanceof HttpAnswerError ? failure.status : 500) : "ok");
    }
    if (failed) throw failure;
  };
}

function offerRefusal(error: unknown): OfferRefusal {
  if (error instanceof NotReadyError) return OFFER_REFUSAL.notReady;
  if (error instanceof RateLimitExceededError) return error.scope === "shared" ? OFFER_REFUSAL.sharedRate : OFFER_REFUSAL.issuanceRate;
  if (error instanceof ChallengeCapacityError) return OFFER_REFUSAL.capacity;
  if (error instanceof BurnAddressUnavailableError) return OFFER_REFUSAL.stockUnavailable;
  if (error instanceof ProfileDisabledError) return OFFER_REFUSAL.profileDisabled;
  if (error instanceof QuoteOutOfRangeError) return OFFER_REFUSAL.invalidRequest;
  if (error instanceof HttpAnswerError && error.status === 401) return OFFER_REFUSAL.unauthenticated;
  if (error instanceof HttpAnswerError && error.status < 500) return OFFER_REFUSAL.invalidRequest;
  return OFFER_REFUSAL.internalError;
}
