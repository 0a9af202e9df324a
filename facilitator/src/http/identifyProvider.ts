import { createHash } from "node:crypto";
import { isIP, isIPv4 } from "node:net";
import { PAYER_ADDRESS_HEADER } from "@svc/scheme";

import type { FacilitatorConfig } from "../config/facilitatorConfigSchema.js";
import { InvalidRequestError, ProviderUnauthenticatedError } from "./errors.js";
import type { AuthenticatedProvider, HttpMiddleware } from "./httpState.js";

const BEARER = /^Bearer +([^\s]+) *$/i;

/**
 * Authenticates the caller of a money endpoint as one of `[providers.*]` and puts it, with its limits, on
 * `ctx.state.provider`; a missing or unknown key is 401. Only then is the provider's `X-Svc-Payer-Address`
 * read (an IP address, else 400) into `ctx.state.payerAddress`. Without configured providers it does nothing
 * and the header is ignored: an anonymous caller cannot pick its own rate-limit bucket. Keys are matched by
 * their SHA-256, the only form the configuration holds.
 */
export function identifyProvider(config: Pick<FacilitatorConfig, "providers" | "daemon">): HttpMiddleware {
  const byDigest = new Map<string, AuthenticatedProvider>(
    Object.entries(config.providers ?? {}).map(([name, provider]) => [
      provider.key_sha256.toLowerCase(),
      {
        name,
        ratePerMinute: provider.rate_limit_per_min ?? config.daemon.rate_limit_per_min,
        challengePerPayerPerMinute: provider.challenge_per_payer_per_min ?? config.daemon.challenge_per_key_per_min,
      },
    ]),
  );
  if (byDigest.size === 0) return async (_ctx, next) => next();
  return async (ctx, next) => {
    const key = BEARER.exec(ctx.get("Authorization"))?.[1];
    const provider = key === undefined ? undefined : byDigest.get(createHash("sha256").update(key, "utf8").digest("hex"));
    if (provider === undefined) throw new ProviderUnauthenticatedError();
    ctx.state.provider = provider;
    const payer = ctx.get(PAYER_ADDRESS_HEADER).trim();
    if (payer !== "") {
      if (isIP(payer) === 0) throw new InvalidRequestError({ reason: `${PAYER_ADDRESS_HEADER} must be an IP address` });
      const mapped = /^::ffff:(.+)$/i.exec(payer)?.[1];
      ctx.state.payerAddress = mapped !== undefined && isIPv4(mapped) ? mapped : payer;
    }
    await next();
  };
}
