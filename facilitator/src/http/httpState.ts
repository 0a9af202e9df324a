/** The per-request state the facilitator's middleware shares through `ctx.state`. */
import type Koa from "koa";

/**
 * What `ctx.state` holds. `clientIp` is written by `resolveClientIp` before any route or limiter runs, so
 * everything mounted after it can read it as a string.
 */
export type HttpState = {
  /** The client address after applying `listen.trusted_proxies`, IPv4-mapped IPv6 written as plain IPv4. */
  clientIp: string;
};

/** A Koa middleware of this app. */
export type HttpMiddleware = Koa.Middleware<HttpState>;
