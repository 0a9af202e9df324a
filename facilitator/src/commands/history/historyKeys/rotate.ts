/**
 * `facilitator history-keys rotate --dir <dir> [--revoke-previous]`: adds a fresh issuer key to the manifest
 * and makes it the daemon's key; the previous key file is kept as `issuer-key.<key id>.pem`.
 */
import { createPrivateKey } from "node:crypto";
import { readFile, rename } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ed25519PublicKeyOf } from "@svc/scheme";

import { updateIssuerManifest } from "../../../history/proofs/updateIssuerManifest.js";
import { UsageError } from "../../clipanion.js";
import { asUsageError } from "./asUsageError.js";
import { KEY_FILES, readKeyDirectory, writeJson, writePrivateKey } from "./keyDirectory.js";

/** Parameters of {@link runHistoryKeysRotate}. */
export type RunHistoryKeysRotateParameters = { dir: string; revokePrevious?: boolean | undefined; nowSeconds?: number | undefined };

/** What rotate changed. */
export type HistoryKeysRotateResult = { previousKeyId: string; newKeyId: string; previousRevoked: boolean; sequence: number; previousKeyFile: string };

/**
 * Rotates the issuer key in `dir`: the current `issuer-key.pem` moves aside, a new key takes its place and is
 * listed in the re-signed manifest; with `revokePrevious` the old key also gets `revoked_at` now (use that
 * after a compromise, not for routine rotation: it turns its active proofs into `REVOKED`).
 *
 * @example
 * await runHistoryKeysRotate({ dir: "/etc/facilitator/history-keys" });
 */
export async function runHistoryKeysRotate({
  dir,
  revokePrevious = false,
  nowSeconds = Math.floor(Date.now() / 1000),
}: RunHistoryKeysRotateParameters): Promise<HistoryKeysRotateResult> {
  const root = resolve(dir);
  const keys = await readKeyDirectory(root);
  const currentPath = join(root, KEY_FILES.issuerKey);
  let currentPublicKey: string;
  try {
    currentPublicKey = ed25519PublicKeyOf(createPrivateKey(await readFile(currentPath, "utf8")));
  } catch {
    throw new UsageError(`${currentPath} cannot be read as an Ed25519 private key`);
  }
  const previous = keys.manifest.payload.keys.find((key) => key.public_key === currentPublicKey);
  if (previous === undefined) throw new UsageError(`${currentPath} is not listed in the manifest`);
  const updated = asUsageError(() =>
    updateIssuerManifest({
      manifest: keys.manifest,
      root: keys.root,
      nowSeconds,
      change: { kind: "rotate", revokeKeyId: revokePrevious ? previous.key_id : undefined },
    }),
  );
  const newKey = updated.newKey;
  if (newKey === undefined) throw new UsageError("rotation produced no key");
  const previousKeyFile = join(root, `issuer-key.${previous.key_id}.pem`);
  await rename(currentPath, previousKeyFile);
  await writePrivateKey(currentPath, newKey);
  await writeJson(join(root, KEY_FILES.manifest), updated.manifest, { exclusive: false });
  return {
    previousKeyId: previous.key_id,
    newKeyId: newKey.keyId,
    previousRevoked: revokePrevious,
    sequence: updated.manifest.payload.sequence,
    previousKeyFile,
  };
}
