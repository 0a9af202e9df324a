import { ed25519PublicKeyOf, formatArtifactTime, type IssuerKey, type IssuerManifest, signArtifact } from "@svc/scheme";

import { InvalidHistoryOptionError } from "../errors.js";
import { generateNamedKey, type NamedKey } from "./createIssuerKeySet.js";

/** A change to a manifest's key list. */
export type ManifestChange =
  | { kind: "rotate" /** Also revoke this key (the one being replaced) at `nowSeconds`. */; revokeKeyId?: string | undefined }
  | { kind: "revoke"; keyId: string /** Unix seconds; defaults to now. Never before the key's creation. */; atSeconds?: number | undefined };

/** The re-signed manifest, and the new issuer key when the change was a rotation. */
export type UpdateIssuerManifestReturnType = { manifest: IssuerManifest; newKey: NamedKey | undefined };

/**
 * Applies a rotation or revocation and re-signs the manifest with the root key, bumping `sequence`. A
 * rotation adds a fresh issuer key (the old one stays listed so its proofs keep verifying at issuance); a
 * revocation sets `revoked_at`, after which statuses signed by that key stop counting and its proofs
 * evaluate as revoked. A key already revoked is refused rather than re-dated: moving `revoked_at` later
 * would resurrect what a verifier has already seen revoked.
 *
 * @example
 * const { manifest, newKey } = updateIssuerManifest({ manifest, root, nowSeconds, change: { kind: "rotate" } });
 */
export function updateIssuerManifest({
  manifest,
  root,
  nowSeconds,
  change,
}: {
  manifest: IssuerManifest;
  root: NamedKey;
  nowSeconds: number;
  change: ManifestChange;
}): UpdateIssuerManifestReturnType {
  const now = formatArtifactTime(nowSeconds);
  let keys: IssuerKey[] = manifest.payload.keys.map((key) => ({ ...key }));
  let newKey: NamedKey | undefined;
  const revoke = (keyId: string, at: number) => {
    const key = keys.find((candidate) => candidate.key_id === keyId);
    if (key === undefined) throw new InvalidHistoryOptionError({ option: "key id", reason: `${keyId} is not listed in the manifest` });
    if (key.revoked_at !== undefined) throw new InvalidHistoryOptionError({ option: "key id", reason: `${keyId} is already revoked` });
    if (at < Date.parse(key.created_at) / 1000) throw new InvalidHistoryOptionError({ option: "revocation time", reason: "precedes the key's creation" });
    key.revoked_at = formatArtifactTime(at);
  };
  if (change.kind === "rotate") {
    newKey = generateNamedKey("issuer");
    keys = [...keys, { key_id: newKey.keyId, alg: "Ed25519", public_key: ed25519PublicKeyOf(newKey.privateKey), created_at: now }];
    if (change.revokeKeyId !== undefined) revoke(change.revokeKeyId, nowSeconds);
  } else {
    revoke(change.keyId, change.atSeconds ?? nowSeconds);
  }
  const payload = { ...manifest.payload, sequence: manifest.payload.sequence + 1, issued_at: now, keys };
  return { manifest: signArtifact(payload, root), newKey };
}
