import { type Hex, parseSignature } from "viem";

import { InvalidSignatureError } from "./errors.js";
import type { Bytes32 } from "../wire/bytes32.js";

/** A signature as the permit payload carries it: `v` in the 27/28 form the token's `permit` accepts. */
export type SignatureParts = { v: 27 | 28; r: Bytes32; s: Bytes32 };

/**
 * Splits a 65-byte `r || s || v` signature into `{v, r, s}` for the permit payload, normalising a 0/1
 * parity byte to 27/28. Throws `InvalidSignatureError` (without quoting the bytes) when it is not one.
 */
export function splitSignature(signature: Hex): SignatureParts {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) throw new InvalidSignatureError();
  try {
    const { r, s, yParity } = parseSignature(signature);
    return { v: yParity === 0 ? 27 : 28, r, s };
  } catch (cause) {
    throw new InvalidSignatureError({ cause });
  }
}
