/**
 * Errors of the resource-server plugin. They live beside the plugin rather than in `../errors/` because this
 * folder is the plugin's whole surface; each still extends the package's one `BaseError`.
 */
import { BaseError } from "../errors/base.js";
import type { FacilitatorRequestFailure } from "../http/requestFacilitatorJson.js";

/** Quotes untrusted text briefly, so a hostile or oversized facilitator answer cannot flood a 502 body. */
function quoteShort(value: string, limit = 120): string {
  const flat = value.replace(/\s+/g, " ").trim();
  return flat.length > limit ? `${flat.slice(0, limit)}…` : flat;
}

/** Why `POST /challenge` produced no usable offer: the request failed, or its answer is no offer for this network. */
export type ChallengeFailure = FacilitatorRequestFailure | { kind: "invalid_offer"; issues: string };

/**
 * Thrown when the facilitator's `POST /challenge` fails. `shortMessage` is written for the paying client
 * (the middleware answers 502 with it) and never names the facilitator's address; `details` is for the
 * operator's log.
 */
export class ChallengeRequestError extends BaseError {
  override name = "ChallengeRequestError";
  /** What went wrong, as data. */
  readonly failure: ChallengeFailure;

  constructor({ failure, url, cause }: { failure: ChallengeFailure; url: string; cause?: unknown }) {
    super(describeFailure(failure), { details: `POST ${url}`, cause });
    this.failure = failure;
  }
}

function describeFailure(failure: ChallengeFailure): string {
  const prefix = "The payment facilitator could not issue an svc-zerc20 offer";
  switch (failure.kind) {
    case "unreachable":
      return `${prefix}: it is unreachable.`;
    case "timeout":
      return `${prefix}: it did not answer within ${failure.timeoutMs} ms.`;
    case "refused":
      return failure.facilitatorError === undefined
        ? `${prefix}: POST /challenge answered HTTP ${failure.status}.`
        : `${prefix}: POST /challenge answered HTTP ${failure.status} (${quoteShort(failure.facilitatorError)}).`;
    case "invalid_offer":
      return `${prefix}: its answer is not a valid offer (${quoteShort(failure.issues)}).`;
  }
}

/**
 * Thrown when a route's price reaches the plugin as anything but the plugin's own offer: svc-zerc20 amounts
 * and the asset come from the facilitator, so a money string such as `"$0.01"` has no meaning here.
 */
export class UnsupportedPriceError extends BaseError {
  override name = "UnsupportedPriceError";

  constructor() {
    super("svc-zerc20 prices must come from the plugin's accepts({ price }) option, in base units.", {
      details: 'configure the route with accepts: svcZerc20.accepts({ price: "1000" }) instead of a static price',
    });
  }
}

/** Thrown when a route's list price is not a plain decimal string of base units. */
export class InvalidListPriceError extends BaseError {
  override name = "InvalidListPriceError";

  constructor({ issues }: { issues: string }) {
    super("Invalid svc-zerc20 list price: expected base units as a plain decimal string.", { details: issues });
  }
}

/** Thrown when a plugin option is out of range, so a misconfiguration fails at start, not per request. */
export class InvalidServerOptionError extends BaseError {
  override name = "InvalidServerOptionError";
  /** The option's name. */
  readonly option: string;

  constructor({ option, expected }: { option: string; expected: string }) {
    super(`Invalid svc-zerc20 server option ${option}: expected ${expected}.`);
    this.option = option;
  }
}

/**
 * Thrown when core asks the plugin to complete requirements it never issued (a static `payTo`, or an offer
 * evicted in the instant between the route's price and the requirements): serving such an offer could never
 * be paid, so it is a server error, not a 402.
 */
export class OfferNotIssuedError extends BaseError {
  override name = "OfferNotIssuedError";

  constructor() {
    super("The svc-zerc20 requirements do not come from an offer this plugin issued.", {
      details: "svc-zerc20 routes must use accepts: svcZerc20.accepts({ price }) so every offer is minted by POST /challenge",
    });
  }
}
