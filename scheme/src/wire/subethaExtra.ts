import { z } from "zod";

import { AddressSchema } from "./address.js";
import { Bytes32Schema } from "./bytes32.js";
import { FeeSchema } from "./fee.js";
import { TokenDecimalsSchema } from "./tokenDecimals.js";

const unixSeconds = z.number().int().nonnegative();

/**
 * The scheme-specific `extra` of an svc-zerc20 offer (the interface name `SubethaExtra` is kept from the
 * spec). Loose, because the protocol is additive-only and the echoed offer must keep keys we do not know.
 */
export const SubethaExtraSchema = z.looseObject({
  /** Server nonce binding the offer to exactly one payment. */
  challengeNonce: Bytes32Schema,
  /** Unix seconds at which the offer expires (absolute form of `maxTimeoutSeconds`). */
  expiresAt: unixSeconds,
  /** PermitBurner address; present exactly when the gasless permit path is offered. */
  helper: AddressSchema.optional(),
  /** Unix seconds bound for the permit and burn-authorization signatures. */
  deadline: unixSeconds.optional(),
  /** Fee included in `amount`, only under payer-charged fees. */
  fee: FeeSchema.optional(),
  /** The token's decimals as the facilitator read them from the token (zUSDC 6): for showing amounts in token units. */
  decimals: TokenDecimalsSchema.optional(),
});

/** The scheme-specific `extra` of an svc-zerc20 offer. */
export type SubethaExtra = z.infer<typeof SubethaExtraSchema>;

/**
 * The `extra` of any requirements as an svc-zerc20 `SubethaExtra`, or `undefined` when it is not one: the
 * provider plugin's one way to read it, so no field is ever probed by hand.
 */
export function parseSubethaExtra(extra: unknown): SubethaExtra | undefined {
  const parsed = SubethaExtraSchema.safeParse(extra);
  return parsed.success ? parsed.data : undefined;
}
