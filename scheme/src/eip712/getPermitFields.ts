import { PermitUnavailableError } from "./errors.js";
import type { Address } from "../wire/address.js";
import type { Offer } from "../wire/offer.js";

/** The offer fields the gasless path depends on, once their presence is checked. */
export type PermitFields = {
  /** The PermitBurner: permit spender and BurnAuthorization verifying contract. */
  helper: Address;
  /** Unix seconds bound for both signatures. */
  deadline: number;
};

/**
 * Reads the offer's `helper` and `deadline` (`extra.helper`, `extra.deadline` on the wire), throwing `PermitUnavailableError` when either is
 * missing: a gasless payer must stop there and never degrade to paying gas itself.
 */
export function getPermitFields(offer: Pick<Offer, "helper" | "deadline">): PermitFields {
  const { helper, deadline } = offer;
  if (helper === undefined || deadline === undefined) {
    const missing = [...(helper === undefined ? (["helper"] as const) : []), ...(deadline === undefined ? (["deadline"] as const) : [])];
    throw new PermitUnavailableError({ missing });
  }
  return { helper, deadline };
}
