import { HostNotAllowedError } from "../http/errors.js";
import { isHostAllowed } from "../policy/isHostAllowed.js";
import type { Policy } from "../policy/policy.js";

/**
 * A `fetch` for the scheme's history client that checks `SVC_ALLOWED_HOSTS` before each request leaves and
 * refuses redirects outright (a redirect hop would otherwise skip the check). Throws `HostNotAllowedError`
 * with nothing sent.
 */
export function createAllowlistedFetch(allowedHosts: Policy["allowedHosts"], fetchFn: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!isHostAllowed(allowedHosts, url)) throw new HostNotAllowedError({ url });
    return fetchFn(input, { ...init, redirect: "error" });
  };
}
