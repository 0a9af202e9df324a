import { type Hex, serializeSignature } from "viem";

import { InvalidSignatureError } from "./errors.js";
import type { SignatureParts } from "./splitSignature.js";

/**
 * Joins permit `{v, r, s}` back into the 65-byte `r || s || v` form signature recovery takes. Throws
 * `InvalidSignatureError` (without quoting the parts) when `r` or `s` is out of range.
 */
export function joinSignature(parts: SignatureParts): Hex {
  try {
    return serializeSignature({ r: parts.r, s: parts.s, yParity: parts.v === 27 ? 0 : 1 });
  } catch (cause) {
    throw new InvalidSignatureError({ cause });
  }
}
