import { type Hex, keccak256, stringToHex } from "viem";
import { canonicalJson } from "./canonicalJson.js";
import { findJsonBoundsViolation } from "./jsonBounds.js";
import { paymentIdentity } from "./paymentIdentity.js";

/**
 * Identity of a scheme payload: keccak256 of the RFC 8785 canonical JSON of its semantic content
 * ({@link paymentIdentity}). The facilitator and the provider plugin both use it to tell an identical re-send
 * (answered again) from a different payment for the same offer (refused): key order, address and hex case and
 * unknown keys do not change it; another signature or another burn does. A payload of neither shape is
 * digested as written, unless no canonical form exists (nested too deep, a number such as `1e400`): then the
 * digest is that of the broken rule, so this never throws on hostile input. Such a payload can never be paid,
 * so sharing a digest with another unpayable payload conflates nothing.
 */
export function payloadDigest(payload: unknown): Hex {
  const identity = paymentIdentity(payload);
  const outOfBounds = identity === undefined ? findJsonBoundsViolation(payload) : undefined;
  const digested = identity ?? (outOfBounds === undefined ? payload : { payloadOutOfBounds: outOfBounds });
  return keccak256(stringToHex(canonicalJson(digested)));
}
