import type { HTTPRequestContext, PaymentOption } from "@x402/core/http";
import { FacilitatorResponseError, SDK_DEFAULT_ASSET_TRANSFER_METHOD } from "@x402/core/server";
import type { AssetAmount, PaymentFlowConfig, PaymentRequirements, Price, SchemeNetworkServer, SchemeServerHooks } from "@x402/core/types";

import { decodePaymentSignatureHeader } from "../headers/paymentSignatureHeader.js";
import { type DecimalString, DecimalStringSchema } from "../wire/decimalString.js";
import { describeIssues } from "../wire/describeIssues.js";
import type { Network } from "../wire/network.js";
import { fromChallengeOffer, offerExtra } from "../wire/offer.js";
import { SCHEME } from "../wire/scheme.js";
import { parseSubethaExtra } from "../wire/subethaExtra.js";
import { type ChallengeClient, createChallengeClient } from "./createChallengeClient.js";
import { ChallengeRequestError, InvalidListPriceError, OfferNotIssuedError, UnsupportedPriceError } from "./errors.js";
import type { CachedOffer, OptionalRequirementFields } from "./cachedOffer.js";
import { OfferCache } from "./offerCache.js";
import { PaymentGate } from "./paymentGate.js";

/** zERC20 tokens have 18 decimals; core only uses this to display amounts on its paywall page. */
const ZERC20_DECIMALS = 18;

/** How the plugin reaches the facilitator and how much it remembers. */
export type SvcZerc20ServerOptions = {
  /** The CAIP-2 network the provider sells on, e.g. `eip155:31337`. */
  network: Network;
  /** The facilitator's base URL; offers come from its `POST /challenge`. */
  facilitatorUrl: string;
  /** Injected for tests and custom transports; defaults to the global `fetch`. */
  fetch?: typeof fetch | undefined;
  /** Bound on one `POST /challenge` in milliseconds (default 10 000). */
  challengeTimeoutMs?: number | undefined;
  /** Offers remembered for paid retries (default 5000); beyond it expired, then least recently used, go first. */
  maxCachedOffers?: number | undefined;
  /** Unix seconds; injected for tests. */
  now?: (() => number) | undefined;
  /**
   * This provider's key at the facilitator (`[providers.<name>]`), sent on every `/challenge`. Pass the same
   * key to `HTTPFacilitatorClient` with `facilitatorAuthHeaders(providerKey)` for `/verify` and `/settle`.
   */
  providerKey?: string | undefined;
  /**
   * The paying client's address for a request (its IP as the provider's framework resolved it), forwarded on
   * `/challenge` so the facilitator limits offers per payer rather than per provider. Without it every payer
   * of this provider shares one issuance bucket.
   */
  payerAddress?: ((context: HTTPRequestContext) => string | undefined) | undefined;
};

/** A route's list price in base units, fixed or computed from the request. */
export type ListPrice = string | ((context: HTTPRequestContext) => string | Promise<string>);

/** What one priced route asks of the plugin. */
export type SvcZerc20RouteOptions = OptionalRequirementFields & {
  /** List price in base units; the facilitator adds any payer-charged fee to the quoted `amount`. */
  price: ListPrice;
};

/** One `accepts(...)` call: its object identity binds the offers it issues to the route. */
type Route = { price: ListPrice; fields: OptionalRequirementFields };

/**
 * The svc-zerc20 resource-server plugin (`SchemeNetworkServer` of @x402/core): offers are minted by the
 * facilitator's `POST /challenge`, one per request, and remembered so the paid retry rebuilds exactly the
 * offer the payer echoed. Core asks a route for `payTo` and `price` through functions of the request context
 * ({@link SvcZerc20ServerScheme.accepts}); both resolve from one memoised offer per request:
 * - no payment: a fresh offer, cached by `challengeNonce`;
 * - a payment echoing a live offer this route issued: that offer, unchanged, byte for byte;
 * - any other payment (unknown or expired offer, provider restarted, another route's offer): a fresh offer,
 *   so core's matching fails and the client gets a 402 with it.
 * A failed `/challenge` becomes core's `FacilitatorResponseError`, which the official middlewares answer
 * with 502. The scheme hooks add the in-flight lock and re-serving of accepted payments (`PaymentGate`).
 *
 * @example
 * const zerc20 = registerSvcZerc20Server(resourceServer, { network: "eip155:31337", facilitatorUrl });
 * const routes = { "GET /weather": { accepts: zerc20.accepts({ price: "1000000000000000" }) } };
 */
export class SvcZerc20ServerScheme implements SchemeNetworkServer {
  /** The scheme identifier, `svc-zerc20`. */
  readonly scheme = SCHEME;
  /** svc-zerc20 has a single way to move funds, so it uses core's SDK-only default (never put on the wire). */
  readonly defaultAssetTransferMethod = SDK_DEFAULT_ASSET_TRANSFER_METHOD;
  /** Verify before the handler and settle after it: the `authorization` flow the spec's sequence describes. */
  readonly paymentFlows: Readonly<Record<string, PaymentFlowConfig>> = {
    [SDK_DEFAULT_ASSET_TRANSFER_METHOD]: { supported: ["authorization"], default: "authorization" },
  };
  /** The in-flight lock and accepted-payment replay, as core scheme hooks. */
  readonly schemeHooks: SchemeServerHooks;
  /** The network this instance is registered for. */
  readonly network: Network;

  private readonly offers: OfferCache<CachedOffer>;
  private readonly challenge: ChallengeClient;
  private readonly now: () => number;
  private readonly payerAddress: ((context: HTTPRequestContext) => string | undefined) | undefined;
  private readonly perRequest = new WeakMap<object, Map<Route, Promise<CachedOffer>>>();

  constructor(options: SvcZerc20ServerOptions) {
    this.network = options.network;
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.offers = new OfferCache({ maxEntries: options.maxCachedOffers, now: this.now });
    this.challenge = createChallengeClient({
      facilitatorUrl: options.facilitatorUrl,
      network: options.network,
      fetch: options.fetch,
      timeoutMs: options.challengeTimeoutMs,
      providerKey: options.providerKey,
    });
    this.payerAddress = options.payerAddress;
    this.schemeHooks = new PaymentGate({ offers: this.offers, now: this.now }).hooks;
  }

  /**
   * The route option for core's `RouteConfig.accepts`: `payTo` and `price` are functions of the request, so
   * every 402 carries a fresh one-time burn address. The optional fields are copied onto each offer.
   */
  accepts(options: SvcZerc20RouteOptions): PaymentOption {
    const { price, ...fields } = options;
    if (typeof price === "string") parseListPrice(price);
    const route: Route = { price, fields };
    return {
      scheme: SCHEME,
      network: this.network,
      payTo: async (context) => (await this.offerFor(context, route)).offer.payTo,
      price: async (context) => {
        const { offer } = await this.offerFor(context, route);
        return { amount: offer.amount.toString(), asset: offer.asset, extra: offerExtra(offer) };
      },
    };
  }

  /** Passes the offer's amount, asset and `extra` through; only prices from `accepts` are meaningful. */
  async parsePrice(price: Price): Promise<AssetAmount> {
    if (typeof price !== "object") throw new UnsupportedPriceError();
    return { amount: price.amount, asset: price.asset, ...(price.extra === undefined ? {} : { extra: price.extra }) };
  }

  /**
   * Completes core's requirements from the issued offer: the `maxTimeoutSeconds` fixed at issue (not the
   * route default) and the optional standard fields. Core does not pass the request here, so the offer is
   * found by its nonce.
   */
  async enhancePaymentRequirements(requirements: PaymentRequirements): Promise<PaymentRequirements> {
    const extra = parseSubethaExtra(requirements.extra);
    const issued = extra === undefined ? undefined : this.offers.peek(extra.challengeNonce);
    if (issued === undefined || issued.offer.payTo !== requirements.payTo || issued.offer.amount.toString() !== requirements.amount) {
      throw new OfferNotIssuedError();
    }
    const { resource, description, mimeType, outputSchema } = issued.fields;
    return {
      ...requirements,
      maxTimeoutSeconds: issued.maxTimeoutSeconds,
      ...(resource === undefined ? {} : { resource }),
      ...(description === undefined ? {} : { description }),
      ...(mimeType === undefined ? {} : { mimeType }),
      ...(outputSchema === undefined ? {} : { outputSchema }),
    };
  }

  /** zERC20's 18 decimals, for core's paywall display. */
  getAssetDecimals(): number {
    return ZERC20_DECIMALS;
  }

  /** One offer per request and route: core calls `payTo` and `price` with the same context object. */
  private offerFor(context: HTTPRequestContext, route: Route): Promise<CachedOffer> {
    let byRoute = this.perRequest.get(context);
    if (byRoute === undefined) {
      byRoute = new Map();
      this.perRequest.set(context, byRoute);
    }
    let offer = byRoute.get(route);
    if (offer === undefined) {
      offer = this.resolveOffer(context, route);
      byRoute.set(route, offer);
    }
    return offer;
  }

  private async resolveOffer(context: HTTPRequestContext, route: Route): Promise<CachedOffer> {
    const listPrice = parseListPrice(typeof route.price === "function" ? await route.price(context) : route.price);
    const echoed = readEchoedChallengeNonce(context);
    if (echoed !== undefined) {
      const cached = this.offers.get(echoed);
      if (cached !== undefined && cached.route === route && cached.listPrice === listPrice) return cached;
    }
    return this.issue(route, listPrice, this.payerAddress?.(context));
  }

  private async issue(route: Route, listPrice: DecimalString, payerAddress: string | undefined): Promise<CachedOffer> {
    let offer;
    try {
      // The plugin's edge: the parsed answer becomes the typed offer here, and every 402 is encoded from it.
      offer = fromChallengeOffer(await this.challenge(listPrice, { payerAddress }));
    } catch (error) {
      throw error instanceof ChallengeRequestError ? toFacilitatorResponseError(error) : error;
    }
    const issued: CachedOffer = {
      offer,
      route,
      listPrice,
      // Fixed once here and served unchanged from the cache, so the paid retry rebuilds the same number.
      maxTimeoutSeconds: Math.max(1, offer.expiresAt - this.now()),
      fields: route.fields,
      expiresAt: offer.expiresAt,
    };
    this.offers.set(offer.challengeNonce, issued);
    return issued;
  }
}

function parseListPrice(value: string): DecimalString {
  const parsed = DecimalStringSchema.safeParse(value);
  if (!parsed.success) throw new InvalidListPriceError({ issues: describeIssues(parsed.error) });
  return parsed.data;
}

/**
 * The `challengeNonce` the request's payment echoes, read from the same header core reads the payment from
 * (never the v1 `X-PAYMENT`, which the Express adapter also offers as `paymentHeader`), or `undefined` when
 * there is no readable svc-zerc20 payment.
 */
function readEchoedChallengeNonce(context: HTTPRequestContext): string | undefined {
  const header = context.adapter.getHeader("payment-signature") || context.adapter.getHeader("PAYMENT-SIGNATURE");
  if (!header) return undefined;
  try {
    return decodePaymentSignatureHeader(header).accepted.extra.challengeNonce;
  } catch {
    return undefined;
  }
}

/** Core's middlewares answer this class with 502 and its message; the plugin's own error stays as `cause`. */
function toFacilitatorResponseError(error: ChallengeRequestError): FacilitatorResponseError {
  const wrapped = new FacilitatorResponseError(error.shortMessage);
  wrapped.cause = error;
  return wrapped;
}
