import { isIPv4 } from "node:net";
import proxyaddr from "proxy-addr";

import { TrustedProxiesError } from "./errors.js";
import type { HttpMiddleware } from "./httpState.js";

/**
 * Puts the client address on `ctx.state.clientIp`, resolved the way Express's `trust proxy` setting does
 * (the same `proxy-addr` compile and walk): `X-Forwarded-For` is followed only through peers listed in
 * `trustedProxies`, so a client talking to us directly cannot choose its own rate-limit key. Koa's own
 * `ctx.ip` is not used because `app.proxy` trusts every hop or none.
 *
 * @example
 * app.use(resolveClientIp(config.listen.trusted_proxies));
 */
export function resolveClientIp(trustedProxies: readonly string[] | undefined): HttpMiddleware {
  let trust: ReturnType<typeof proxyaddr.compile>;
  try {
    trust = proxyaddr.compile([...(trustedProxies ?? [])]);
  } catch (error) {
    throw new TrustedProxiesError({ cause: error });
  }
  return async (ctx, next) => {
    // proxy-addr yields undefined for a socket that closed before we looked; such a request is gone anyway.
    const address: string | undefined = proxyaddr(ctx.req, trust);
    ctx.state.clientIp = normalizeIp(address ?? "unknown");
    await next();
  };
}

/** Writes an IPv4-mapped IPv6 address as IPv4, so one client has one key on a dual-stack socket. */
function normalizeIp(address: string): string {
  const mapped = /^::ffff:(.+)$/i.exec(address)?.[1];
  return mapped !== undefined && isIPv4(mapped) ? mapped : address;
}
