/**
 * Conversions between Node's `KeyObject` and the raw base64url public keys artifacts carry. Node's crypto
 * does the Ed25519 work, so verifying needs no extra dependency and no network.
 */
import { createPublicKey, type KeyObject } from "node:crypto";

import { InvalidArtifactKeyError } from "./errors.js";

/** Imports a raw base64url Ed25519 public key (as listed in a manifest or trust anchor) for verifying. */
export function importEd25519PublicKey(publicKey: string): KeyObject {
  try {
    return createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: publicKey }, format: "jwk" });
  } catch (cause) {
    throw new InvalidArtifactKeyError({ reason: "the public key does not decode", cause });
  }
}

/** The raw base64url public key of an Ed25519 private or public key. */
export function ed25519PublicKeyOf(key: KeyObject): string {
  if (key.asymmetricKeyType !== "ed25519") throw new InvalidArtifactKeyError({ reason: `expected ed25519, got ${key.asymmetricKeyType ?? key.type}` });
  const jwk = createPublicKey(key).export({ format: "jwk" });
  if (typeof jwk.x !== "string") throw new InvalidArtifactKeyError({ reason: "the key exports no public part" });
  return jwk.x;
}
