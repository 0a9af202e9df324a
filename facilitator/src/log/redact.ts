/**
 * Redaction for anything the daemon prints. Two rules: every known secret value is replaced wherever it
 * appears (with or without `0x`, any letter case), and any hex run of 128 or more digits is treated as a
 * signature (65-byte ECDSA signatures and longer) and replaced. 32-byte values such as transaction hashes
 * and challenge nonces stay readable because operators need them.
 */

/** What replaces a redacted value. */
export const REDACTED = "[redacted]";

const SIGNATURE_GRADE_HEX = /(0x)?[0-9a-fA-F]{128,}/g;

/** Returns `text` with every secret and signature-grade hex run replaced by {@link REDACTED}. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
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
