import { type Hex, keccak256, stringToHex } from "viem";
import { canonicalJson } from "../history/canonicalJson.js";
import { paymentIdentity } from "./paymentIdentity.js";

/**
 * Identity of a scheme payload: keccak256 of the RFC 8785 canonical JSON of its semantic content
 * ({@link paymentIdentity}). The facilitator and the provider plugin both use it to tell an identical re-send
 * (answered again) from a different payment for the same offer (refused): key order, address and hex case and
 * unknown keys do not change it; another signature or another burn does. A payload of neither shape is
 * digested as written.
 */
export function payloadDigest(payload: unknown): Hex {
  return keccak256(stringToHex(canonicalJson(paymentIdentity(payload) ?? payload)));
}
