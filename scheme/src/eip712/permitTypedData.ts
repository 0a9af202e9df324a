import { getAddress } from "viem";

import type { Address } from "../wire/address.js";
import type { Offer } from "../wire/offer.js";
import { getPermitFields } from "./getPermitFields.js";

/** The EIP-2612 `Permit` struct, in the field order the token hashes it. */
export const permitTypes = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

/** Inputs to `buildPermitTypedData`: the offer plus what only the chain knows. */
export type BuildPermitTypedDataParameters = {
  /** The offer being paid (the fields the permit signs). */
  offer: Pick<Offer, "chainId" | "asset" | "amount" | "helper" | "deadline">;
  /** The paying EOA (permit owner). */
  payer: Address;
  /** The payer's current token nonce, read live from `nonces(payer)`. */
  nonce: bigint;
  /** The token's `name()`, the permit domain name. */
  tokenName: string;
};

/** The typed data of an svc-zerc20 permit, ready for viem's `signTypedData` or `recoverTypedDataAddress`. */
export type BuildPermitTypedDataReturnType = {
  domain: { name: string; version: "1"; chainId: number; verifyingContract: Address };
  types: typeof permitTypes;
  primaryType: "Permit";
  message: { owner: Address; spender: Address; value: bigint; nonce: bigint; deadline: bigint };
};

/**
 * Builds the EIP-2612 permit for an offer: owner = payer, spender = `extra.helper`, value = `amount`,
 * deadline = `extra.deadline`, domain = the token on the offer's chain. Payer and facilitator both call it
 * on the same offer, so they hash the same message. Addresses are checksummed here only because viem's
 * encoder rejects all-uppercase spellings; the hash does not depend on case.
 *
 * @example
 * const typedData = buildPermitTypedData({ offer, payer: account.address, nonce, tokenName });
 * const signature = await account.signTypedData(typedData);
 */
export function buildPermitTypedData(parameters: BuildPermitTypedDataParameters): BuildPermitTypedDataReturnType {
  const { offer, payer, nonce, tokenName } = parameters;
  const { helper, deadline } = getPermitFields(offer);
  return {
    domain: {
      name: tokenName,
      version: "1",
      chainId: offer.chainId,
      verifyingContract: getAddress(offer.asset),
    },
    types: permitTypes,
    primaryType: "Permit",
    message: {
      owner: getAddress(payer),
      spender: getAddress(helper),
      value: offer.amount,
      nonce,
      deadline: BigInt(deadline),
    },
  };
}
