import { maxUint256 } from "viem";
import { z } from "zod";

/**
 * A base-unit amount as a plain decimal string: no sign, exponent, fraction or leading zero (except `"0"`).
 * One spelling per value matters because offers are matched as exact strings; the uint256 bound keeps every
 * value encodable on-chain and stops oversized strings before any `BigInt` work.
 */
export const DecimalStringSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/, { error: "expected a plain non-negative decimal integer string", abort: true })
  .refine((value) => BigInt(value) <= maxUint256, { error: "value exceeds uint256" });

/** A base-unit amount as a plain decimal string. */
export type DecimalString = z.infer<typeof DecimalStringSchema>;
