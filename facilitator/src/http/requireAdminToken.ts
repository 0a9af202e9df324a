import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

import { AdminUnauthorizedError } from "./errors.js";
import type { HttpMiddleware } from "./httpState.js";

/** Paths of the operations surface, matched without regard to case because the router ignores case too. */
const ADMIN_PATH = /^\/admin(?:\/|$)/i;

const BEARER = /^Bearer +([^\s]+) *$/i;

/**
 * Guards every `/admin/*` path, including ones no route serves, so a caller without the token learns nothing
 * about the admin surface. The presented token and the configured one are compared as SHA-256 digests with
 * `timingSafeEqual`, so neither their contents nor their lengths show in the timing. Without a configured
 * token the same comparison runs against a random digest and always fails, and the refusal is the very same
 * 401 as for a wrong token: the answer does not reveal whether a token is configured. `alsoGuarded` lists
 * exact paths outside `/admin` that need the token too (`/metrics` by default).
 */
export function requireAdminToken(adminToken: string | undefined, alsoGuarded: readonly string[] = []): HttpMiddleware {
  const configured = adminToken !== undefined && adminToken !== "";
  const expected = configured ? sha256(adminToken) : randomBytes(32);
  const guarded = new Set(alsoGuarded.map((path) => path.toLowerCase()));
  return async (ctx, next) => {
    // The router ignores case and a trailing slash, so the guard must match the same spellings.
    const isGuarded = ADMIN_PATH.test(ctx.path) || guarded.has(ctx.path.toLowerCase().replace(/\/+$/, ""));
    if (!isGuarded) return next();
    const presented = BEARER.exec(ctx.get("Authorization"))?.[1] ?? "";
    const matches = timingSafeEqual(sha256(presented), expected);
    if (!(matches && configured)) throw new AdminUnauthorizedError();
    await next();
  };
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
