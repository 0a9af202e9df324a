import type { DeepReadonly, SchemeServerHooks, SettleContext, SettleResponse, VerifyContext, VerifyResultContext } from "@x402/core/types";
import type { Hex } from "viem";

import { CHALLENGE_EXPIRED, PAYLOAD_CONFLICT } from "../reasons/reasonCodes.js";
import type { CachedOffer } from "./cachedOffer.js";
import type { OfferCache } from "./offerCache.js";
import { payloadDigest } from "../wire/payloadDigest.js";
import { parseSubethaExtra } from "../wire/subethaExtra.js";
import { CONCURRENT_PAYMENT_FAILED } from "./serverReasonCodes.js";

/** How the one running attempt for an offer ended. */
type Outcome = "accepted" | "failed";

/** The one verify-handler-settle run for an offer; later requests with the same offer wait on `done`. */
type InFlight = { done: Promise<Outcome>; finish: (outcome: Outcome) => void };

/** What one request is to the gate: the run's owner, or a re-send served from the accepted record. */
type Ticket = { role: "owner"; challengeNonce: string; fingerprint: Hex; inFlight: InFlight } | { role: "replay"; response: SettleResponse };

/** What the gate works on. */
export type PaymentGateParameters = {
  /** The plugin's offer cache: accepted payments are recorded on their offer and expire with it. */
  offers: OfferCache<CachedOffer>;
  /** Unix seconds. */
  now: () => number;
};

/**
 * The in-flight lock per `challengeNonce`, as scheme hooks. Two requests carrying the same payment would
 * otherwise both pass `/verify` and both run the handler; here the first owns the run and the others wait
 * for its outcome. After an acceptance, an identical payment (a waiter, or a client re-sending after a lost
 * response) is served again without reaching the facilitator, for as long as the offer lives: verify and
 * settle are skipped and the recorded `PAYMENT-RESPONSE` is repeated, so nothing is burned twice. A different
 * payment for an accepted offer, a failed run, or an offer expiring while waiting gets a 402.
 *
 * Requests are told apart by their decoded payment object, the one object core hands to every hook of one
 * request.
 */
export class PaymentGate {
  /** The scheme hooks that implement the gate; registered with the scheme. */
  readonly hooks: SchemeServerHooks;
  private readonly offers: OfferCache<CachedOffer>;
  private readonly now: () => number;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly tickets = new WeakMap<object, Ticket>();

  constructor(parameters: PaymentGateParameters) {
    this.offers = parameters.offers;
    this.now = parameters.now;
    this.hooks = {
      onBeforeVerify: (context) => this.beforeVerify(context),
      onAfterVerify: async (context) => this.afterVerify(context),
      onVerifyFailure: async (context) => this.finish(context.paymentPayload, "failed"),
      onBeforeSettle: async (context) => this.beforeSettle(context),
      onAfterSettle: async (context) => this.finish(context.paymentPayload, "accepted", context.result),
      onSettleFailure: async (context) => this.finish(context.paymentPayload, "failed"),
      onVerifiedPaymentCanceled: async (context) => this.finish(context.paymentPayload, "failed"),
    };
  }

  private async beforeVerify(context: VerifyContext) {
    // The gate's edge: the requirements' `extra` is parsed once; anything but an svc-zerc20 offer passes through.
    const extra = parseSubethaExtra(context.requirements.extra);
    if (extra === undefined) return undefined;
    const { challengeNonce, expiresAt } = extra;
    const fingerprint = payloadDigest(context.paymentPayload.payload);

    for (;;) {
      const settled = this.offers.peek(challengeNonce)?.settled;
      if (settled !== undefined) {
        if (settled.fingerprint !== fingerprint) {
          return abort(PAYLOAD_CONFLICT, "This offer was already paid with a different payment.");
        }
        this.tickets.set(context.paymentPayload, { role: "replay", response: settled.response });
        return { skip: true as const, result: { isValid: true, ...(settled.response.payer ? { payer: settled.response.payer } : {}) } };
      }

      const running = this.inFlight.get(challengeNonce);
      if (running === undefined) {
        const inFlight = createInFlight();
        this.inFlight.set(challengeNonce, inFlight);
        this.tickets.set(context.paymentPayload, { role: "owner", challengeNonce, fingerprint, inFlight });
        return undefined;
      }

      const outcome = await this.waitFor(running, expiresAt);
      if (outcome === "expired") {
        // A run that never reported back (a later hook aborted it) must not hold the offer's key forever.
        if (this.inFlight.get(challengeNonce) === running) this.inFlight.delete(challengeNonce);
        return abort(CHALLENGE_EXPIRED, "The offer expired while the same payment was in flight.");
      }
      if (outcome === "failed") {
        return abort(CONCURRENT_PAYMENT_FAILED, "The same payment was being processed by another request and did not succeed.");
      }
      // Accepted: loop once more to serve it from the record (or refuse a different payment).
    }
  }

  private afterVerify(context: VerifyResultContext): void {
    if (!context.result.isValid) this.finish(context.paymentPayload, "failed");
  }

  private beforeSettle(context: SettleContext) {
    const ticket = this.tickets.get(context.paymentPayload);
    if (ticket?.role !== "replay") return undefined;
    return { skip: true as const, result: structuredClone(ticket.response) };
  }

  private finish(paymentPayload: object, outcome: Outcome, result?: DeepReadonly<SettleResponse>): void {
    const ticket = this.tickets.get(paymentPayload);
    if (ticket?.role !== "owner") return;
    this.tickets.delete(paymentPayload);
    if (outcome === "accepted" && result?.success) {
      const issued = this.offers.peek(ticket.challengeNonce);
      // A copy: core enriches the live result in place, and each re-send must start from the facilitator's answer.
      if (issued !== undefined) issued.settled = { fingerprint: ticket.fingerprint, response: structuredClone(result) };
    }
    if (this.inFlight.get(ticket.challengeNonce) === ticket.inFlight) this.inFlight.delete(ticket.challengeNonce);
    ticket.inFlight.finish(outcome);
  }

  /** Waits for the running attempt, but never past the offer's life: after that no payment can be served. */
  private async waitFor(running: InFlight, expiresAt: number | undefined): Promise<Outcome | "expired"> {
    if (expiresAt === undefined) return running.done;
    const remainingMs = (expiresAt + 1 - this.now()) * 1000;
    if (remainingMs <= 0) return "expired";
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<"expired">((resolve) => {
      timer = setTimeout(() => resolve("expired"), remainingMs);
    });
    try {
      return await Promise.race([running.done, expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function createInFlight(): InFlight {
  let finish: (outcome: Outcome) => void = () => undefined;
  const done = new Promise<Outcome>((resolve) => {
    finish = resolve;
  });
  return { done, finish };
}

function abort(reason: string, message: string) {
  return { abort: true as const, reason, message };
}
