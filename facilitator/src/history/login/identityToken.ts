/**
 * Short-lived identity tokens: HS256 JWTs signed with `HISTORY_IDENTITY_SECRET`, issued after a verified
 * wallet login and presented as `Authorization: Bearer <token>`. Claims (the spec leaves them open): `sub` the
 * role, `tid` tenant, `aid` actor, `wal` the wallet that signed, `iss` the login domain, `aud`
 * {@link IDENTITY_TOKEN_AUDIENCE}, `iat`, `exp`, `jti`. A token whose lifetime claims exceed
 * {@link MAX_IDENTITY_TOKEN_TTL_SECONDS} is refused even if correctly signed.
 */
import { randomUUID } from "node:crypto";
import { HistorySubjectSchema, VisibleIdSchema } from "@svc/scheme";
import { jwtVerify, SignJWT } from "jose";
import { z } from "zod";

import { InvalidHistoryOptionError } from "../errors.js";
import type { HistoryIdentity } from "../participantBinding.js";

/** The audience of every identity token, so a JWT minted for another purpose with the same secret is refused. */
export const IDENTITY_TOKEN_AUDIENCE = "svc-zerc20-history";

/** The spec's bound on token lifetime. */
export const MAX_IDENTITY_TOKEN_TTL_SECONDS = 3600;

/** Token lifetime unless the code-level option says otherwise: 15 minutes, enough for a listing session. */
export const DEFAULT_IDENTITY_TOKEN_TTL_SECONDS = 900;

const ClaimsSchema = z.object({
  sub: HistorySubjectSchema,
  tid: VisibleIdSchema,
  aid: VisibleIdSchema,
  iat: z.int(),
  exp: z.int(),
});

/** How tokens are signed and checked. */
export type CreateIdentityTokensParameters = {
  secret: string;
  /** The login domain, used as `iss`. */
  issuer: string;
  /** Lifetime in seconds, at most {@link MAX_IDENTITY_TOKEN_TTL_SECONDS}. */
  ttlSeconds?: number | undefined;
  /** Unix milliseconds. */
  now: () => number;
};

/** Issues and verifies identity tokens. */
export type IdentityTokens = {
  issue: (identity: HistoryIdentity & { wallet: string }) => Promise<{ token: string; expiresAt: number }>;
  /** The identity a valid, unexpired token carries, or `undefined`. */
  verify: (token: string) => Promise<HistoryIdentity | undefined>;
};

/** Builds the token issuer and verifier; throws `InvalidHistoryOptionError` for a lifetime out of range. */
export function createIdentityTokens({ secret, issuer, ttlSeconds = DEFAULT_IDENTITY_TOKEN_TTL_SECONDS, now }: CreateIdentityTokensParameters): IdentityTokens {
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_IDENTITY_TOKEN_TTL_SECONDS) {
    throw new InvalidHistoryOptionError({ option: "tokenTtlSeconds", reason: `must be whole seconds between 1 and ${MAX_IDENTITY_TOKEN_TTL_SECONDS}` });
  }
  const key = new TextEncoder().encode(secret);
  return {
    issue: async ({ subject, tenantId, actorId, wallet }) => {
      const issuedAt = Math.floor(now() / 1000);
      const expiresAt = issuedAt + ttlSeconds;
      const token = await new SignJWT({ tid: tenantId, aid: actorId, wal: wallet })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(subject)
        .setIssuer(issuer)
        .setAudience(IDENTITY_TOKEN_AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .setJti(randomUUID())
        .sign(key);
      return { token, expiresAt };
    },
    verify: async (token) => {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ["HS256"],
          issuer,
          audience: IDENTITY_TOKEN_AUDIENCE,
          currentDate: new Date(now()),
          requiredClaims: ["sub", "iat", "exp", "jti"],
        });
        const claims = ClaimsSchema.safeParse(payload);
        if (!claims.success || claims.data.exp - claims.data.iat > MAX_IDENTITY_TOKEN_TTL_SECONDS) return undefined;
        return { subject: claims.data.sub, tenantId: claims.data.tid, actorId: claims.data.aid };
      } catch {
        return undefined;
      }
    },
  };
}
