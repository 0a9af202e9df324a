import { z } from "zod";

/** A 65-byte ECDSA signature as 0x-prefixed hex, `r || s || v`, the form `burnAuthSig` travels in. */
export const SignatureHexSchema = z.templateLiteral(["0x", z.string().regex(/^[0-9a-fA-F]{130}$/)], {
  error: "expected 0x and 130 hex digits (a 65-byte signature)",
});

/** A 65-byte signature as it travels on the wire. */
export type SignatureHex = z.infer<typeof SignatureHexSchema>;
