import type { IssuerKey } from "./issuerManifest.js";
import { parseArtifactTime } from "./artifactTime.js";

/**
 * Whether a manifest key may sign at `unixSeconds`: on or after `created_at` and strictly before `revoked_at`.
 * The revocation instant itself already counts as revoked, so a signature stamped exactly then is refused.
 */
export function issuerKeyValidAt(key: IssuerKey, unixSeconds: number): boolean {
  if (unixSeconds < parseArtifactTime(key.created_at)) return false;
  return key.revoked_at === undefined || unixSeconds < parseArtifactTime(key.revoked_at);
}
