/** `facilitator history-keys revoke --dir <dir> --key-id <id> [--at <time>]`: sets `revoked_at` on an issuer key. */
import { join, resolve } from "node:path";
import { formatArtifactTime } from "@svc/scheme";

import { updateIssuerManifest } from "../../../history/proofs/updateIssuerManifest.js";
import { KEY_FILES, readKeyDirectory, writeJson } from "./keyDirectory.js";
import { asUsageError } from "./asUsageError.js";

/** Parameters of {@link runHistoryKeysRevoke}. */
export type RunHistoryKeysRevokeParameters = { dir: string; keyId: string; atSeconds?: number | undefined; nowSeconds?: number | undefined };

/**
 * Revokes issuer key `keyId` in the manifest of `dir` from `atSeconds` (default now) and re-signs it. Proofs
 * it signed before then still verify at issuance; any current-status check after then gives `REVOKED`, and
 * statuses it signs from then on are not trusted.
 *
 * @example
 * await runHistoryKeysRevoke({ dir: "/etc/facilitator/history-keys", keyId: "issuer-1a2b3c4d" });
 */
export async function runHistoryKeysRevoke({
  dir,
  keyId,
  atSeconds,
  nowSeconds = Math.floor(Date.now() / 1000),
}: RunHistoryKeysRevokeParameters): Promise<{ keyId: string; revokedAt: string; sequence: number }> {
  const root = resolve(dir);
  const keys = await readKeyDirectory(root);
  const { manifest } = asUsageError(() =>
    updateIssuerManifest({ manifest: keys.manifest, root: keys.root, nowSeconds, change: { kind: "revoke", keyId, atSeconds } }),
  );
  await writeJson(join(root, KEY_FILES.manifest), manifest, { exclusive: false });
  return { keyId, revokedAt: formatArtifactTime(atSeconds ?? nowSeconds), sequence: manifest.payload.sequence };
}
