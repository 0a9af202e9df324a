import { z } from "zod";

import { AddressSchema } from "./address.js";
import { DecimalStringSchema } from "./decimalString.js";
import { NetworkSchema } from "./network.js";
import { SCHEME } from "./scheme.js";
import { SubethaExtraSchema } from "./subethaExtra.js";

/**
 * One svc-zerc20 offer (x402 v2 `PaymentRequirements`). Loose, so the payer can echo it as `accepted` with
 * every key it did not understand; the x402 matcher compares all fields but `extra` by deep equality.
 */
export const PaymentRequirementsSchema = z.looseObject({
  scheme: z.literal(SCHEME),
  network: NetworkSchema,
  /** The zERC20 token contract. */
  asset: AddressSchema,
  /** Quoted amount in base units (list price plus any payer-charged fee). */
  amount: DecimalStringSchema,
  /** The one-time burn address of this offer. */
  payTo: AddressSchema,
  maxTimeoutSeconds: z.number().int().positive(),
  extra: SubethaExtraSchema,
  resource: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
});

/** One svc-zerc20 offer as it travels in `accepts` and, echoed, in `accepted`. */
export type PaymentRequirements = z.infer<typeof PaymentRequirementsSchema>;
