/** The verifier's recipient hash recomputed in TypeScript, as an independent check of the contract. */
import { concat, encodePacked, sha256, slice, type Hex } from "viem";
import type { TestGeneralRecipient } from "./generalRecipient.js";

/** `sha256(be64(chainId) || recipient || tweak)` with byte 0 replaced by 0x01. */
export function expectedRecipientHash(gr: TestGeneralRecipient): Hex {
  const digest = sha256(encodePacked(["uint64", "bytes32", "bytes32"], [gr.chainId, gr.recipient, gr.tweak]));
  return concat(["0x01", slice(digest, 1)]);
}
