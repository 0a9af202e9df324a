import type { Policy } from "./policy.js";

/**
 * True when `url` may be requested under the host allowlist: http or https, and its host name (lower-case,
 * port ignored) listed, unless the list is `*`. Called for every hop, before the request leaves.
 */
export function isHostAllowed(allowedHosts: Policy["allowedHosts"], url: URL): boolean {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (allowedHosts === "*") return true;
  const host = url.hostname.toLowerCase();
  return allowedHosts.includes(host);
}
