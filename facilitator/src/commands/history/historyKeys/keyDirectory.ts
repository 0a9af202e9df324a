/**
 * The folder layout the `history-keys` commands share, and reading it back with every trust check applied:
 * `root-key.pem` (offline root key; signs manifests), `issuer-key.pem` (the daemon's signing key),
 * `manifest.json` (signed key manifest) and `trust-anchor.json` (published out of band). Private keys are
 * written with mode 0600 and never overwritten in place.
 */
import { createPrivateKey } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ed25519PublicKeyOf, type IssuerManifest, type TrustAnchor, verifyIssuerManifest } from "@svc/scheme";

import type { NamedKey } from "../../../history/proofs/createIssuerKeySet.js";
import { writeFileDurably } from "../../../history/proofs/writeFileDurably.js";
import { UsageError } from "../../clipanion.js";

/** File names inside a key folder. */
export const KEY_FILES = {
  rootKey: "root-key.pem",
  issuerKey: "issuer-key.pem",
  manifest: "manifest.json",
  trustAnchor: "trust-anchor.json",
} as const;

/** A key folder read back and checked: the manifest verifies against the anchor and the root key is the anchor's. */
export type KeyDirectory = { root: NamedKey; manifest: IssuerManifest; trustAnchor: TrustAnchor };

/** Reads and checks the key folder `dir`; every problem is a `UsageError` naming the file. */
export async function readKeyDirectory(dir: string): Promise<KeyDirectory> {
  const checked = verifyIssuerManifest({
    manifest: await readJson(join(dir, KEY_FILES.manifest)),
    trustAnchor: await readJson(join(dir, KEY_FILES.trustAnchor)),
  });
  if (!checked.valid) throw new UsageError(`${join(dir, KEY_FILES.manifest)} is not trusted: ${checked.reason}`);
  const rootPem = await readText(join(dir, KEY_FILES.rootKey));
  let publicKey: string;
  let privateKey;
  try {
    privateKey = createPrivateKey(rootPem);
    publicKey = ed25519PublicKeyOf(privateKey);
  } catch {
    throw new UsageError(`${join(dir, KEY_FILES.rootKey)} is not an Ed25519 private key in PEM`);
  }
  const anchorKey = checked.trustAnchor.root_keys.find((key) => key.public_key === publicKey);
  if (anchorKey === undefined) throw new UsageError(`${join(dir, KEY_FILES.rootKey)} is not a root key of the trust anchor`);
  return { root: { keyId: anchorKey.key_id, privateKey }, manifest: checked.manifest, trustAnchor: checked.trustAnchor };
}

/** Writes a private key as PKCS#8 PEM with mode 0600, refusing to overwrite. */
export async function writePrivateKey(path: string, key: NamedKey): Promise<void> {
  await writeDurably(path, String(key.privateKey.export({ format: "pem", type: "pkcs8" })), { mode: 0o600, exclusive: true });
}

/** Writes pretty JSON, either refusing to overwrite or replacing the file atomically. */
export async function writeJson(path: string, value: unknown, { exclusive }: { exclusive: boolean }): Promise<void> {
  await writeDurably(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o644, exclusive });
}

async function writeDurably(path: string, text: string, options: { mode: number; exclusive: boolean }): Promise<void> {
  try {
    await writeFileDurably(path, text, options);
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "EEXIST") throw new UsageError(`${path} already exists; refusing to overwrite it`);
    throw error;
  }
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch {
    throw new UsageError(`cannot read ${path}`);
  }
}

async function readJson(path: string): Promise<unknown> {
  const text = await readText(path);
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${path} is not JSON`);
  }
}
