/**
 * Field schemas shared by the history artifacts (trust anchor, issuer manifest, proof, status). They are
 * strict about spelling because every one of these values is signed: a second spelling of the same key or
 * digest would let two different byte strings claim one identity.
 */
import { z } from "zod";

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function base64UrlOfLength(bytes: number, what: string) {
  return z
    .string()
    .regex(BASE64URL, { error: `expected ${what} as unpadded base64url`, abort: true })
    .refine((value) => decodesTo(value, bytes), { error: `expected ${what} of ${bytes} bytes in canonical base64url` });
}

function decodesTo(value: string, bytes: number): boolean {
  const decoded = Buffer.from(value, "base64url");
  return decoded.length === bytes && decoded.toString("base64url") === value;
}

/** A raw 32-byte Ed25519 public key, unpadded base64url (the JWK `x` form). */
export const Ed25519PublicKeySchema = base64UrlOfLength(32, "an Ed25519 public key");

/** A raw 64-byte Ed25519 signature, unpadded base64url. */
export const Ed25519SignatureSchema = base64UrlOfLength(64, "an Ed25519 signature");

/** A key identifier: a letter or digit, then up to 63 letters, digits, `.`, `_`, `:` or `-`. */
export const KeyIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/, {
  error: "expected a key id: a letter or digit, then up to 63 of [A-Za-z0-9._:-]",
});

/** A printable identifier (issuer, tenant, actor, domain): 1 to 128 visible ASCII characters, no spaces. */
export const VisibleIdSchema = z.string().regex(/^[\x21-\x7e]{1,128}$/, {
  error: "expected 1 to 128 visible ASCII characters without spaces",
});

/** A SHA-256 digest as 64 lowercase hex digits. */
export const Sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, { error: "expected 64 lowercase hex digits (SHA-256)" });

/** A proof identifier: 32 lowercase hex digits (16 random bytes), safe to use as a folder name. */
export const ProofIdSchema = z.string().regex(/^[0-9a-f]{32}$/, { error: "expected a proof id: 32 lowercase hex digits" });

/** A payment identifier: the payment's challenge nonce as 0x and 64 lowercase hex digits. */
export const PaymentIdSchema = z.templateLiteral(["0x", z.string().regex(/^[0-9a-f]{64}$/)], {
  error: "expected a payment id: 0x and 64 lowercase hex digits",
});

/** A payment identifier (the lowercase challenge nonce). */
export type PaymentId = z.infer<typeof PaymentIdSchema>;

/** The two participant roles a history record binds. */
export const HistorySubjectSchema = z.enum(["payer", "provider"], { error: "expected subject payer or provider" });

/** `payer` or `provider`. */
export type HistorySubject = z.infer<typeof HistorySubjectSchema>;
