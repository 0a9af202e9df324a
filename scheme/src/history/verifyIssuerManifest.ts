import { describeIssues } from "../wire/describeIssues.js";
import { verifyArtifactSignature } from "./artifactSignature.js";
import { type IssuerManifest, IssuerManifestSchema } from "./issuerManifest.js";
import { type TrustAnchor, TrustAnchorSchema } from "./trustAnchor.js";

/** The manifest and the trust anchor to check it against, as read (unparsed). */
export type VerifyIssuerManifestParameters = { manifest: unknown; trustAnchor: unknown };

/** A trusted manifest with its anchor, or why it is not trusted. */
export type VerifyIssuerManifestReturnType = { valid: true; manifest: IssuerManifest; trustAnchor: TrustAnchor } | { valid: false; reason: string };

/**
 * Checks a key manifest against the out-of-band trust anchor before any of its keys is used: both parse,
 * they name the same issuer, and the manifest is signed by one of the anchor's root keys.
 *
 * @example
 * const checked = verifyIssuerManifest({ manifest, trustAnchor });
 * if (!checked.valid) console.error(checked.reason);
 */
export function verifyIssuerManifest({ manifest, trustAnchor }: VerifyIssuerManifestParameters): VerifyIssuerManifestReturnType {
  const anchor = TrustAnchorSchema.safeParse(trustAnchor);
  if (!anchor.success) return { valid: false, reason: `trust anchor is malformed: ${describeIssues(anchor.error)}` };
  const parsed = IssuerManifestSchema.safeParse(manifest);
  if (!parsed.success) return { valid: false, reason: `manifest is malformed: ${describeIssues(parsed.error)}` };
  if (parsed.data.payload.issuer !== anchor.data.issuer) {
    return { valid: false, reason: "manifest names a different issuer than the trust anchor" };
  }
  const root = anchor.data.root_keys.find((key) => key.key_id === parsed.data.signature.key_id);
  if (!root) return { valid: false, reason: "manifest is not signed by a root key of the trust anchor" };
  if (!verifyArtifactSignature(parsed.data, root.public_key)) {
    return { valid: false, reason: "manifest signature does not verify against the trust anchor" };
  }
  return { valid: true, manifest: parsed.data, trustAnchor: anchor.data };
}
