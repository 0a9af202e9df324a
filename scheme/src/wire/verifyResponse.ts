import { z } from "zod";

import { AddressSchema } from "./address.js";

/**
 * The facilitator's `/verify` answer, compatible with @x402/core's parser. A failed check is data:
 * `isValid: false` with one of the reason codes in `invalidReason`.
 */
export const VerifyResponseSchema = z.looseObject({
  isValid: z.boolean(),
  /** A reason code, on invalid. */
  invalidReason: z.string().optional(),
  /** Human-readable companion to `invalidReason`; @x402/core shows it in errors. */
  invalidMessage: z.string().optional(),
  payer: AddressSchema.optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
});

/** The facilitator's `/verify` answer. */
export type VerifyResponse = z.infer<typeof VerifyResponseSchema>;
