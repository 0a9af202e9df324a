import { z } from "zod";

import { DecimalStringSchema } from "./decimalString.js";

/** The payer-charged fee already included in the offer's `amount`; absent under provider-charged fees. */
export const FeeSchema = z.looseObject({
  /** Fee in base units. */
  amount: DecimalStringSchema,
  /** Fee rate in basis points. */
  bps: z.number().int().min(0).max(10_000),
});

/** The payer-charged fee shown in an offer. */
export type Fee = z.infer<typeof FeeSchema>;
