import type { Hex } from "viem";

import { InvalidSignatureError } from "./errors.js";
import type { Address } from "../wire/address.js";
import type { Offer } from "../wire/offer.js";
import type { PermitPayload } from "../wire/permitPayload.js";
import { SignatureHexSchema } from "../wire/signatureHex.js";
import { getPermitFields } from "./getPermitFields.js";
import { splitSignature } from "./splitSignature.js";

/** Inputs to `buildPermitPayload`: the offer, the nonce the permit was signed for, and both signatures. */
export type BuildPermitPayloadParameters = {
  offer: Pick<Offer, "challengeNonce" | "amount" | "helper" | "deadline">;
  payer: Address;
  /** The token nonce used in `buildPermitTypedData`. */
  nonce: bigint;
  /** The payer's signature over `buildPermitTypedData(...)`. */
  permitSignature: Hex;
  /** The payer's signature over `buildBurnAuthorizationTypedData(...)`. */
  burnAuthorizationSignature: Hex;
};

/**
 * Assembles the gasless payload from the same offer fields the typed data was built from, so `value` and
 * `deadline` cannot drift from what was signed.
 */
export function buildPermitPayload(parameters: BuildPermitPayloadParameters): PermitPayload {
  const { offer, payer, nonce, permitSignature, burnAuthorizationSignature } = parameters;
  const { deadline } = getPermitFields(offer);
  const burnAuthSig = SignatureHexSchema.safeParse(burnAuthorizationSignature);
  if (!burnAuthSig.success) throw new InvalidSignatureError();
  return {
    challengeNonce: offer.challengeNonce,
    payer,
    permit: {
      value: offer.amount.toString(),
      nonce: nonce.toString(),
      deadline: deadline.toString(),
      ...splitSignature(permitSignature),
    },
    burnAuthSig: burnAuthSig.data,
  };
}
