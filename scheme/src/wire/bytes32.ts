import { z } from "zod";

/** A 32-byte value as 0x-prefixed hex (challenge nonces, transaction hashes, signature `r`/`s`), case kept. */
export const Bytes32Schema = z.templateLiteral(["0x", z.string().regex(/^[0-9a-fA-F]{64}$/)], {
  error: "expected 0x and 64 hex digits (32 bytes)",
});

/** A 32-byte hex value as it travels on the wire. */
export type Bytes32 = z.infer<typeof Bytes32Schema>;
