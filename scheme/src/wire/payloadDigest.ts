import { type Hex, keccak256, stringToHex } from "viem";
import { canonicalJson } from "../history/canonicalJson.js";

/**
 * Identity of a scheme payload: keccak256 of its RFC 8785 canonical JSON. The facilitator and the provider
 * plugin both use it to tell an identical re-send (answered again) from a different payment for the same
 * offer (refused); re-serialising the same payload in another key order is still the same payment.
 */
export function payloadDigest(payload: unknown): Hex {
  return keccak256(stringToHex(canonicalJson(payload)));
}
