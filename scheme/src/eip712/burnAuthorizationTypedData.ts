import { getAddress, keccak256, toHex } from "viem";

import type { Address } from "../wire/address.js";
import type { Bytes32 } from "../wire/bytes32.js";
import type { Offer } from "../wire/offer.js";
import { getPermitFields } from "./getPermitFields.js";

/** The EIP-712 domain name of the PermitBurner contract. */
export const PERMIT_BURNER_DOMAIN_NAME = "SvcPermitBurner";

/** The EIP-712 domain version of the PermitBurner contract. */
export const PERMIT_BURNER_DOMAIN_VERSION = "1";

/** The canonical encoding of the BurnAuthorization struct; its keccak256 is the contract's typehash. */
export const BURN_AUTHORIZATION_TYPE =
  "BurnAuthorization(address token,address payer,address burnAddress,uint256 value,bytes32 challengeNonce,uint256 deadline)";

/** `keccak256(BURN_AUTHORIZATION_TYPE)`: the `BURN_AUTHORIZATION_TYPEHASH` PermitBurner hashes with. */
export const BURN_AUTHORIZATION_TYPEHASH = keccak256(toHex(BURN_AUTHORIZATION_TYPE));

/** The BurnAuthorization struct that binds a payer's permit to one burn address and one challenge. */
export const burnAuthorizationTypes = {
  BurnAuthorization: [
    { name: "token", type: "address" },
    { name: "payer", type: "address" },
    { name: "burnAddress", type: "address" },
    { name: "value", type: "uint256" },
    { name: "challengeNonce", type: "bytes32" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

/** Inputs to `buildBurnAuthorizationTypedData`. */
export type BuildBurnAuthorizationTypedDataParameters = {
  /** The offer being paid (the fields the authorization signs). */
  offer: Pick<Offer, "chainId" | "asset" | "payTo" | "amount" | "challengeNonce" | "helper" | "deadline">;
  /** The paying EOA. */
  payer: Address;
};

/** The typed data of a BurnAuthorization, ready for viem's `signTypedData` or `recoverTypedDataAddress`. */
export type BuildBurnAuthorizationTypedDataReturnType = {
  domain: {
    name: typeof PERMIT_BURNER_DOMAIN_NAME;
    version: typeof PERMIT_BURNER_DOMAIN_VERSION;
    chainId: number;
    verifyingContract: Address;
  };
  types: typeof burnAuthorizationTypes;
  primaryType: "BurnAuthorization";
  message: {
    token: Address;
    payer: Address;
    burnAddress: Address;
    value: bigint;
    challengeNonce: Bytes32;
    deadline: bigint;
  };
};

/**
 * Builds the BurnAuthorization for an offer: token = `asset`, burnAddress = `payTo`, value = `amount`,
 * challengeNonce and deadline from `extra`, domain = the PermitBurner at `extra.helper`. Without it a relayer
 * holding the permit could move the payer's tokens anywhere; with it the allowance can only fund this burn.
 *
 * @example
 * const burnAuthSig = await account.signTypedData(buildBurnAuthorizationTypedData({ offer, payer }));
 */
export function buildBurnAuthorizationTypedData(parameters: BuildBurnAuthorizationTypedDataParameters): BuildBurnAuthorizationTypedDataReturnType {
  const { offer, payer } = parameters;
  const { helper, deadline } = getPermitFields(offer);
  return {
    domain: {
      name: PERMIT_BURNER_DOMAIN_NAME,
      version: PERMIT_BURNER_DOMAIN_VERSION,
      chainId: offer.chainId,
      verifyingContract: getAddress(helper),
    },
    types: burnAuthorizationTypes,
    primaryType: "BurnAuthorization",
    message: {
      token: getAddress(offer.asset),
      payer: getAddress(payer),
      burnAddress: getAddress(offer.payTo),
      value: offer.amount,
      challengeNonce: offer.challengeNonce,
      deadline: BigInt(deadline),
    },
  };
}
