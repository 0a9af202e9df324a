/**
 * Loads the proof issuer at startup and refuses to start on anything doubtful, naming the variable:
 * - `HISTORY_ISSUER_PRIVATE_KEY_PATH`: a PKCS#8 PEM Ed25519 private key;
 * - `HISTORY_ISSUER_TRUST_ANCHOR_PATH` and `HISTORY_ISSUER_MANIFEST_PATH`: the manifest must verify against
 *   the anchor before any of its keys is believed;
 * - the signing key must be listed in the manifest with the private key's public key, and not be revoked now;
 * - `HISTORY_ISSUER_ID` defaults to the manifest's issuer and, when set, must equal it;
 * - `HISTORY_ISSUER_KEY_ID` defaults to the manifest key whose public key matches the private key and, when
 *   set, must name that key.
 * The manifest and anchor are read once: after rotating or revoking a key, restart the daemon.
 */
import { createPrivateKey, type KeyObject } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { type ArtifactSigner, ed25519PublicKeyOf, issuerKeyValidAt, type IssuerManifest, type TrustAnchor, verifyIssuerManifest } from "@svc/scheme";

import { ProofConfigurationError } from "../errors.js";
import type { ProofSettings } from "../parseHistoryEnvironment.js";

/** A loaded, checked proof issuer. */
export type ProofIssuer = {
  issuerId: string;
  signer: ArtifactSigner;
  manifest: IssuerManifest;
  trustAnchor: TrustAnchor;
  ttlSeconds: number;
  artifactPath: string;
};

/** Reads and checks the proof files of `settings` at `nowSeconds`; throws `ProofConfigurationError`. */
export async function loadProofIssuer(settings: ProofSettings, nowSeconds: number): Promise<ProofIssuer> {
  const privateKey = await readPrivateKey(settings.privateKeyPath);
  const publicKey = ed25519PublicKeyOf(privateKey);
  const checked = verifyIssuerManifest({
    manifest: await readJson("HISTORY_ISSUER_MANIFEST_PATH", settings.manifestPath),
    trustAnchor: await readJson("HISTORY_ISSUER_TRUST_ANCHOR_PATH", settings.trustAnchorPath),
  });
  if (!checked.valid) throw new ProofConfigurationError({ variable: "HISTORY_ISSUER_MANIFEST_PATH", reason: `the manifest is not trusted: ${checked.reason}` });
  const { manifest, trustAnchor } = checked;
  if (settings.issuerId !== undefined && settings.issuerId !== manifest.payload.issuer) {
    throw new ProofConfigurationError({ variable: "HISTORY_ISSUER_ID", reason: "does not match the issuer named by the manifest" });
  }
  const key = manifest.payload.keys.find((candidate) =>
    settings.keyId === undefined ? candidate.public_key === publicKey : candidate.key_id === settings.keyId,
  );
  if (key === undefined || key.public_key !== publicKey) {
    throw new ProofConfigurationError({
      variable: settings.keyId === undefined ? "HISTORY_ISSUER_PRIVATE_KEY_PATH" : "HISTORY_ISSUER_KEY_ID",
      reason: "the issuer key is not listed in the manifest with this private key's public key",
    });
  }
  if (!issuerKeyValidAt(key, nowSeconds)) {
    throw new ProofConfigurationError({
      variable: "HISTORY_ISSUER_PRIVATE_KEY_PATH",
      reason: `issuer key ${key.key_id} is revoked or not yet valid in the manifest`,
    });
  }
  try {
    await mkdir(settings.artifactPath, { recursive: true });
  } catch (cause) {
    throw new ProofConfigurationError({ variable: "HISTORY_ARTIFACT_PATH", reason: "the artifact folder cannot be created", cause });
  }
  return {
    issuerId: manifest.payload.issuer,
    signer: { keyId: key.key_id, privateKey },
    manifest,
    trustAnchor,
    ttlSeconds: settings.ttlSeconds,
    artifactPath: settings.artifactPath,
  };
}

async function readPrivateKey(path: string): Promise<KeyObject> {
  const variable = "HISTORY_ISSUER_PRIVATE_KEY_PATH";
  let pem: string;
  try {
    pem = await readFile(path, "utf8");
  } catch (cause) {
    throw new ProofConfigurationError({ variable, reason: "the issuer key file cannot be read", cause });
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (cause) {
    throw new ProofConfigurationError({ variable, reason: "the file is not a PEM private key", cause });
  }
  if (key.asymmetricKeyType !== "ed25519") throw new ProofConfigurationError({ variable, reason: "the issuer key must be Ed25519" });
  return key;
}

async function readJson(variable: string, path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    throw new ProofConfigurationError({ variable, reason: "the file cannot be read", cause });
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ProofConfigurationError({ variable, reason: "the file is not JSON", cause });
  }
}
