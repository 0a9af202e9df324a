import { z } from "zod";

import { AddressSchema } from "./address.js";
import { Bytes32Schema } from "./bytes32.js";
import { NetworkSchema } from "./network.js";

/** The settlement phase a successful `/settle` reports: the burn is on-chain; the mint comes later. */
export const SettleExtraSchema = z.looseObject({
  phase: z.literal("accepted").optional(),
});

/** The scheme-specific `extra` of a settle answer. */
export type SettleExtra = z.infer<typeof SettleExtraSchema>;

/**
 * The facilitator's `/settle` answer, also the `PAYMENT-RESPONSE` body. @x402/core requires `transaction` and
 * `network` even on failure, and its middleware writes `transaction: ""` when it fails a payment itself, so
 * the empty string is allowed; otherwise it is the burn transaction hash, never the mint.
 */
export const SettleResponseSchema = z.looseObject({
  success: z.boolean(),
  transaction: z.union([Bytes32Schema, z.literal("")]),
  network: NetworkSchema,
  /** A reason code, on failure; the middleware may also put an error message here. */
  errorReason: z.string().optional(),
  errorMessage: z.string().optional(),
  payer: AddressSchema.optional(),
  amount: z.string().optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
  extra: SettleExtraSchema.optional(),
});

/** The facilitator's `/settle` answer. */
export type SettleResponse = z.infer<typeof SettleResponseSchema>;
