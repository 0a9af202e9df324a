import { z } from "zod";

import { ChecksumAddressSchema } from "./address.js";
import { Bytes32Schema } from "./bytes32.js";
import { DecimalStringSchema } from "./decimalString.js";
import { SignatureHexSchema } from "./signatureHex.js";

/** The EIP-2612 permit part of a gasless payment: the message values and the split signature. */
export const PermitSchema = z.looseObject({
  /** Must equal the offer's `amount` exactly. */
  value: DecimalStringSchema,
  /** The payer's token nonce the permit was signed for. */
  nonce: DecimalStringSchema,
  deadline: DecimalStringSchema,
  // Only 27 and 28 recover on-chain: the token's permit rejects the 0/1 parity form.
  v: z.union([z.literal(27), z.literal(28)]),
  r: Bytes32Schema,
  s: Bytes32Schema,
});

/** The EIP-2612 permit part of a gasless payment. */
export type Permit = z.infer<typeof PermitSchema>;

/** The gasless permit payload: the payer signs, the facilitator broadcasts the burn through PermitBurner. */
export const PermitPayloadSchema = z.looseObject({
  challengeNonce: Bytes32Schema,
  /** The paying EOA, in EIP-55 form whatever case it was written in; both signatures must recover to it. */
  payer: ChecksumAddressSchema,
  permit: PermitSchema,
  /** The 65-byte EIP-712 BurnAuthorization signature. */
  burnAuthSig: SignatureHexSchema,
});

/** The gasless permit payload. */
export type PermitPayload = z.infer<typeof PermitPayloadSchema>;
