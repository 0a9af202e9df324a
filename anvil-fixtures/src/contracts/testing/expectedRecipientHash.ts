/** The verifier's recipient hash recomputed in TypeScript from the published formula, as an independent check of the contract. */
import { encodePacked, hexToBigInt, sha256 } from "viem";
import type { TestGeneralRecipient } from "./generalRecipient.js";

const TWO_248 = 1n << 248n;

/** `R = 2^248 + (sha256(be64(chainId) || recipient || tweak) mod 2^248)`. */
export function expectedRecipientHash(gr: TestGeneralRecipient): bigint {
  const digest = hexToBigInt(sha256(encodePacked(["uint64", "bytes32", "bytes32"], [gr.chainId, gr.recipient, gr.tweak])));
  return TWO_248 + (digest % TWO_248);
}
