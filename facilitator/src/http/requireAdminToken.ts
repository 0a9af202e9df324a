import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

import { AdminUnauthorizedError } from "./errors.js";
import type { HttpMiddleware } from "./httpState.js";

/** Paths of the operations surface, matched without regard to case because the router ignores case too. */
const ADMIN_PATH = /^\/admin(?:\/|$)/i;

const BEARER = /^Bearer +([^\s]+) *$/i;

const BASIC = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i;

/** The challenge on a browser page's 401, so the browser asks for a username and password. */
export const BASIC_CHALLENGE = 'Basic realm="svc-facilitator"';

/** Options of {@link requireAdminToken}. */
export type AdminTokenOptions = {
  /** Exact paths outside `/admin` that need the token too (`/metrics` by default). */
  alsoGuarded?: readonly string[];
  /**
   * Paths a browser opens: there the token is also taken as the password of HTTP Basic auth (any username),
   * since a browser cannot send a bearer header by itself, and a 401 carries {@link BASIC_CHALLENGE}.
   */
  basicAuthPaths?: readonly string[];
};

/**
 * Guards every `/admin/*` path, including ones no route serves, so a caller without the token learns nothing
 * about the admin surface. The presented token and the configured one are compared as SHA-256 digests with
 * `timingSafeEqual`, so neither their contents nor their lengths show in the timing. Without a configured
 * token the same comparison runs against a random digest and always fails, and the refusal is the very same
 * 401 as for a wrong token: the answer does not reveal whether a token is configured. The token is never
 * taken from the URL, where it would land in browser history, proxy logs and `Referer` headers.
 */
export function requireAdminToken(adminToken: string | undefined, options: AdminTokenOptions = {}): HttpMiddleware {
  const configured = adminToken !== undefined && adminToken !== "";
  const expected = configured ? sha256(adminToken) : randomBytes(32);
  const guarded = new Set((options.alsoGuarded ?? []).map((path) => path.toLowerCase()));
  const basicAuth = new Set((options.basicAuthPaths ?? []).map((path) => path.toLowerCase()));
  return async (ctx, next) => {
    // The router ignores case and a trailing slash, so the guard must match the same spellings.
    const path = ctx.path.toLowerCase().replace(/\/+$/, "");
    const isGuarded = ADMIN_PATH.test(ctx.path) || guarded.has(path);
    if (!isGuarded) return next();
    const allowsBasic = basicAuth.has(path);
    const presented = presentedToken(ctx.get("Authorization"), allowsBasic);
    const matches = timingSafeEqual(sha256(presented), expected);
    if (!(matches && configured)) throw new AdminUnauthorizedError(allowsBasic ? { challenge: BASIC_CHALLENGE } : {});
    await next();
  };
}

/** The bearer token, or with `allowsBasic` the Basic password (the username is ignored); `""` for anything else. */
function presentedToken(authorization: string, allowsBasic: boolean): string {
  const bearer = BEARER.exec(authorization)?.[1];
  if (bearer !== undefined) return bearer;
  const basic = allowsBasic ? BASIC.exec(authorization)?.[1] : undefined;
  if (basic === undefined) return "";
  const credentials = Buffer.from(basic, "base64").toString("utf8");
  const colon = credentials.indexOf(":");
  return colon < 0 ? "" : credentials.slice(colon + 1);
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
