import { type Hex, keccak256, stringToHex } from "viem";

/**
 * Identity of a payment's scheme payload, so a provider can tell an identical re-send (served again) from a
 * different payment for the same offer (refused). Keys are sorted first, as the facilitator does, because
 * re-serialising the same payload in another key order is still the same payment.
 */
export function payloadFingerprint(payload: unknown): Hex {
  return keccak256(stringToHex(JSON.stringify(sortKeys(payload))));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(Reflect.get(value, key))]),
  );
}
