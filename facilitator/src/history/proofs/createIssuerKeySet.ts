import { createHash, generateKeyPairSync, type KeyObject } from "node:crypto";
import {
  ed25519PublicKeyOf,
  formatArtifactTime,
  ISSUER_MANIFEST_TYPE,
  type IssuerManifest,
  type IssuerManifestPayload,
  signArtifact,
  TRUST_ANCHOR_TYPE,
  type TrustAnchor,
} from "@svc/scheme";

/** A key with the id it is listed under. */
export type NamedKey = { keyId: string; privateKey: KeyObject };

/** A fresh issuer setup: the offline root key, the first issuer key, the signed manifest and the trust anchor. */
export type IssuerKeySet = { root: NamedKey; issuer: NamedKey; manifest: IssuerManifest; trustAnchor: TrustAnchor };

export { DEFAULT_ISSUER_ID } from "./defaultIssuerId.js";

/**
 * Generates an Ed25519 key and names it `<prefix>-<first 8 hex digits of SHA-256(public key)>`: the id is
 * derived from the key, so two keys never share one by accident and an id can be checked against its key.
 */
export function generateNamedKey(prefix: "root" | "issuer"): NamedKey {
  const { privateKey } = generateKeyPairSync("ed25519");
  return { keyId: keyIdOf(prefix, privateKey), privateKey };
}

/** The derived id of a key (see {@link generateNamedKey}). */
export function keyIdOf(prefix: string, key: KeyObject): string {
  return `${prefix}-${createHash("sha256")
    .update(Buffer.from(ed25519PublicKeyOf(key), "base64url"))
    .digest("hex")
    .slice(0, 8)}`;
}

/**
 * Creates everything an operator needs to start issuing proofs: a root key (it only signs manifests and
 * belongs offline), an issuer key (the daemon's `HISTORY_ISSUER_PRIVATE_KEY_PATH`), a manifest listing the
 * issuer key signed by the root key, and the trust anchor naming the root key, to publish out of band.
 *
 * @example
 * const set = createIssuerKeySet({ issuer: "pay.example", nowSeconds: Math.floor(Date.now() / 1000) });
 */
export function createIssuerKeySet({ issuer, nowSeconds }: { issuer: string; nowSeconds: number }): IssuerKeySet {
  const root = generateNamedKey("root");
  const issuerKey = generateNamedKey("issuer");
  const now = formatArtifactTime(nowSeconds);
  const payload: IssuerManifestPayload = {
    type: ISSUER_MANIFEST_TYPE,
    version: 1,
    issuer,
    sequence: 1,
    issued_at: now,
    keys: [{ key_id: issuerKey.keyId, alg: "Ed25519", public_key: ed25519PublicKeyOf(issuerKey.privateKey), created_at: now }],
  };
  const manifest = signArtifact(payload, root);
  const trustAnchor: TrustAnchor = {
    type: TRUST_ANCHOR_TYPE,
    version: 1,
    issuer,
    root_keys: [{ key_id: root.keyId, alg: "Ed25519", public_key: ed25519PublicKeyOf(root.privateKey) }],
  };
  return { root, issuer: issuerKey, manifest, trustAnchor };
}
