/**
 * Identity of a scheme payload, so an identical re-send can be told from a different payment for the same
 * challenge. Keys are sorted first: re-serialising the same payload in another key order is the same payment.
 */
import { keccak256, toHex, type Hex } from "viem";

/** keccak256 of the payload's canonical JSON (recursively sorted keys). */
export function payloadDigest(payload: unknown): Hex {
  return keccak256(toHex(JSON.stringify(sortKeys(payload))));
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
