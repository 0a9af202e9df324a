/**
 * Redaction for anything the daemon prints. Three rules: every URL carrying a credential (userinfo, a key-like
 * path segment, a secret-named query parameter) is rewritten with its credentials masked; every known secret
 * value (keys, tokens, the credential parts of the configured RPC, indexer and decider URLs) is replaced
 * wherever it appears (with or without `0x`, any letter case); and any hex run of 128 or more digits is
 * treated as a signature (65-byte ECDSA signatures and longer) and replaced. 32-byte values such as
 * transaction hashes and challenge nonces stay readable because operators need them.
 */
import { redactUrlsInText, urlCredentialValues } from "../config/redactUrl.js";

/** What replaces a redacted value. */
export const REDACTED = "[redacted]";

const SIGNATURE_GRADE_HEX = /(0x)?[0-9a-fA-F]{128,}/g;

/**
 * The secret values to redact for a daemon configured with `urls` (RPC, indexer, decider) besides `secrets`:
 * the URLs' credential parts join the list, so a message quoting only a key or a decoded path still loses it.
 */
export function redactionSecrets(secrets: readonly string[], urls: readonly string[]): readonly string[] {
  return [...secrets, ...urls.flatMap(urlCredentialValues)];
}

/** Returns `text` with credential-bearing URLs masked and every secret and signature-grade hex run replaced by {@link REDACTED}. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = redactUrlsInText(text);
  for (const secret of secrets) {
    const bare = secret.startsWith("0x") || secret.startsWith("0X") ? secret.slice(2) : secret;
    if (bare.length < 8) continue;
    result = result.replace(new RegExp(`(0x)?${escapeRegExp(bare)}`, "gi"), REDACTED);
  }
  return result.replace(SIGNATURE_GRADE_HEX, REDACTED);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
