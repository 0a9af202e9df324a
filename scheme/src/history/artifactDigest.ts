import { createHash } from "node:crypto";

import { canonicalJson } from "../wire/canonicalJson.js";

/**
 * The SHA-256 of a value's canonical JSON, as lowercase hex. Status artifacts link to their predecessor and
 * to their proof through this digest, so it is taken over the canonical form: formatting cannot change it.
 */
export function artifactDigest(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value), "utf8").digest("hex");
}
