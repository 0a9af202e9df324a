import { z } from "zod";

import { OtherPaymentRequirementsSchema } from "./otherPaymentRequirements.js";
import { PaymentRequirementsSchema } from "./paymentRequirements.js";
import { ResourceInfoSchema } from "./resourceInfo.js";
import { X402_VERSION } from "./scheme.js";

/**
 * The x402 v2 402 body carried in `PAYMENT-REQUIRED`. Each `accepts` entry is either a full svc-zerc20 offer
 * or another scheme's offer; an entry that names svc-zerc20 but breaks its shape fails the whole body.
 */
export const PaymentRequiredSchema = z.looseObject({
  x402Version: z.literal(X402_VERSION),
  error: z.string().optional(),
  resource: ResourceInfoSchema,
  accepts: z.array(z.union([PaymentRequirementsSchema, OtherPaymentRequirementsSchema])).min(1),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

/** The x402 v2 402 body. */
export type PaymentRequired = z.infer<typeof PaymentRequiredSchema>;
