import { sign, verify, type KeyObject } from "node:crypto";
import { z } from "zod";

import { Ed25519SignatureSchema, KeyIdSchema } from "./artifactFields.js";
import { canonicalJson } from "../wire/canonicalJson.js";
import { importEd25519PublicKey } from "./ed25519Key.js";
import { InvalidArtifactKeyError } from "./errors.js";

/** The signature block of every signed artifact: algorithm, the signing key's id, and the signature bytes. */
export const ArtifactSignatureSchema = z.strictObject({
  alg: z.literal("Ed25519"),
  key_id: KeyIdSchema,
  value: Ed25519SignatureSchema,
});

/** The signature block of a signed artifact. */
export type ArtifactSignature = z.infer<typeof ArtifactSignatureSchema>;

/** An artifact as stored and exchanged: the signed payload beside its signature. */
export type SignedArtifact<Payload> = { payload: Payload; signature: ArtifactSignature };

/** Who signs: the key's id as listed in the manifest or trust anchor, and the Ed25519 private key. */
export type ArtifactSigner = { keyId: string; privateKey: KeyObject };

/**
 * The bytes a signature covers: the canonical JSON of `{ alg, key_id, payload }`. Covering the key id stops
 * a signature from being re-labelled as another listed key's.
 */
function signingInput(payload: unknown, keyId: string): Buffer {
  return Buffer.from(canonicalJson({ alg: "Ed25519", key_id: keyId, payload }), "utf8");
}

/**
 * Signs `payload` with an Ed25519 key and returns the artifact.
 *
 * @example
 * const proof = signArtifact(payload, { keyId: "issuer-1a2b3c4d", privateKey });
 */
export function signArtifact<Payload>(payload: Payload, signer: ArtifactSigner): SignedArtifact<Payload> {
  if (signer.privateKey.type !== "private" || signer.privateKey.asymmetricKeyType !== "ed25519") {
    throw new InvalidArtifactKeyError({ reason: "signing needs an Ed25519 private key" });
  }
  const value = sign(null, signingInput(payload, signer.keyId), signer.privateKey).toString("base64url");
  return { payload, signature: { alg: "Ed25519", key_id: signer.keyId, value } };
}

/** Whether `artifact.signature` is a valid signature of its payload by the raw base64url `publicKey`. */
export function verifyArtifactSignature(artifact: SignedArtifact<unknown>, publicKey: string): boolean {
  try {
    const key = importEd25519PublicKey(publicKey);
    const input = signingInput(artifact.payload, artifact.signature.key_id);
    return verify(null, input, key, Buffer.from(artifact.signature.value, "base64url"));
  } catch {
    return false;
  }
}
