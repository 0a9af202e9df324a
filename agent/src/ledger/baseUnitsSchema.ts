import { DecimalStringSchema } from "@svc/scheme";
import { z } from "zod";

/**
 * A base-unit amount: a decimal string in the state folder's files, a bigint in memory (as in the scheme's
 * `Offer`). Parsing decodes it; `z.encode` writes the same string back.
 */
export const BaseUnitsSchema = z.codec(DecimalStringSchema, z.bigint().nonnegative(), {
  decode: (text) => BigInt(text),
  encode: (value) => value.toString(),
});
