/**
 * `facilitator history-keys init --dir <dir>`: creates the proof issuer's keys and artifacts in an empty
 * folder: the root key, the first issuer key, the signed manifest and the trust anchor, and prints the
 * variables to set and the anchor's fingerprint to publish.
 */
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { artifactDigest, VisibleIdSchema } from "@svc/scheme";

import { createIssuerKeySet, DEFAULT_ISSUER_ID } from "../../../history/proofs/createIssuerKeySet.js";
import { UsageError } from "../../clipanion.js";
import { KEY_FILES, writeJson, writePrivateKey } from "./keyDirectory.js";

/** Parameters of {@link runHistoryKeysInit}. */
export type RunHistoryKeysInitParameters = {
  dir: string;
  issuer?: string | undefined;
  /** Where the daemon exports proof artifacts; default `<dir>/proofs`. Created if missing. */
  artifactDir?: string | undefined;
  nowSeconds?: number | undefined;
};

/** What init wrote: absolute file paths, key ids and the trust anchor fingerprint. */
export type HistoryKeysInitResult = {
  files: { rootKey: string; issuerKey: string; manifest: string; trustAnchor: string };
  rootKeyId: string;
  issuerKeyId: string;
  /** SHA-256 of the anchor's canonical JSON: read it out to whoever pins the anchor. */
  trustAnchorFingerprint: string;
  /** The folder for `HISTORY_ARTIFACT_PATH` (absolute, created). */
  artifactPath: string;
  /** Every variable of the proof group, ready to export: `start` needs all four. */
  environment: Record<
    "HISTORY_ISSUER_PRIVATE_KEY_PATH" | "HISTORY_ISSUER_MANIFEST_PATH" | "HISTORY_ISSUER_TRUST_ANCHOR_PATH" | "HISTORY_ARTIFACT_PATH",
    string
  >;
};

/**
 * Creates the key set in `dir` (created if missing); refuses when any of its files already exists.
 *
 * @example
 * const result = await runHistoryKeysInit({ dir: "/etc/facilitator/history-keys", issuer: "pay.example" });
 */
export async function runHistoryKeysInit({
  dir,
  issuer = DEFAULT_ISSUER_ID,
  artifactDir,
  nowSeconds = Math.floor(Date.now() / 1000),
}: RunHistoryKeysInitParameters): Promise<HistoryKeysInitResult> {
  if (!VisibleIdSchema.safeParse(issuer).success) throw new UsageError("--issuer must be 1 to 128 visible ASCII characters without spaces");
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const set = createIssuerKeySet({ issuer, nowSeconds });
  const files = {
    rootKey: join(root, KEY_FILES.rootKey),
    issuerKey: join(root, KEY_FILES.issuerKey),
    manifest: join(root, KEY_FILES.manifest),
    trustAnchor: join(root, KEY_FILES.trustAnchor),
  };
  await writePrivateKey(files.rootKey, set.root);
  await writePrivateKey(files.issuerKey, set.issuer);
  await writeJson(files.manifest, set.manifest, { exclusive: true });
  await writeJson(files.trustAnchor, set.trustAnchor, { exclusive: true });
  const artifactPath = resolve(artifactDir ?? join(root, "proofs"));
  await mkdir(artifactPath, { recursive: true });
  return {
    files,
    rootKeyId: set.root.keyId,
    issuerKeyId: set.issuer.keyId,
    trustAnchorFingerprint: artifactDigest(set.trustAnchor),
    artifactPath,
    environment: {
      HISTORY_ISSUER_PRIVATE_KEY_PATH: files.issuerKey,
      HISTORY_ISSUER_MANIFEST_PATH: files.manifest,
      HISTORY_ISSUER_TRUST_ANCHOR_PATH: files.trustAnchor,
      HISTORY_ARTIFACT_PATH: artifactPath,
    },
  };
}
