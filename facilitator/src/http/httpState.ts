/** The per-request state the facilitator's middleware shares through `ctx.state`. */
import type Koa from "koa";

/**
 * What `ctx.state` holds. `clientIp` is written by `resolveClientIp` before any route or limiter runs, so
 * everything mounted after it can read it as a string.
 */
export type HttpState = {
  /** The client address after applying `listen.trusted_proxies`, IPv4-mapped IPv6 written as plain IPv4. */
  clientIp: string;
  /** The authenticated provider of a money-endpoint request, when `[providers.*]` is configured. */
  provider?: AuthenticatedProvider | undefined;
  /** The payer's address as its authenticated provider forwarded it (`X-Svc-Payer-Address`); never from anyone else. */
  payerAddress?: string | undefined;
};

/** A caller that proved it holds one configured provider key, with that provider's limits. */
export type AuthenticatedProvider = {
  name: string;
  ratePerMinute: number;
  challengePerPayerPerMinute: number;
};

/** A Koa middleware of this app. */
export type HttpMiddleware = Koa.Middleware<HttpState>;
