import type { SettleResponse } from "@x402/core/types";
import type { Hex } from "viem";

import type { DecimalString } from "../wire/decimalString.js";
import type { Offer } from "../wire/offer.js";

/** The standard optional requirements fields a provider may attach to its offers. */
export type OptionalRequirementFields = {
  resource?: string | undefined;
  description?: string | undefined;
  mimeType?: string | undefined;
  outputSchema?: Record<string, unknown> | undefined;
};

/** A payment the facilitator accepted for an offer, kept so an identical re-send is served again. */
export type SettledPayment = {
  /** `payloadDigest` of the accepted payment's scheme payload. */
  fingerprint: Hex;
  /** The facilitator's accepted answer, re-sent as `PAYMENT-RESPONSE`. */
  response: SettleResponse;
};

/**
 * One offer in the plugin's cache: the facilitator's offer, plus everything the paid retry must reproduce
 * exactly (`maxTimeoutSeconds` is fixed here, at issue) and what binds it to its route.
 */
export type CachedOffer = {
  readonly offer: Offer;
  /** Identity of the route option that issued it: an offer bought for one route never pays for another. */
  readonly route: object;
  readonly listPrice: DecimalString;
  readonly maxTimeoutSeconds: number;
  readonly fields: OptionalRequirementFields;
  /** `offer.expiresAt`, for the cache. */
  readonly expiresAt: number;
  /** Set once the facilitator accepted a payment for this offer. */
  settled?: SettledPayment;
};
