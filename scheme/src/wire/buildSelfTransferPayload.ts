import type { Bytes32 } from "./bytes32.js";
import type { Offer } from "./offer.js";
import type { SelfTransferPayload } from "./selfTransferPayload.js";

/** Builds the self-transfer payload for an offer once the payer's burn transfer has a successful receipt. */
export function buildSelfTransferPayload(parameters: { offer: Pick<Offer, "challengeNonce">; burnTxHash: Bytes32 }): SelfTransferPayload {
  return { challengeNonce: parameters.offer.challengeNonce, burnTxHash: parameters.burnTxHash };
}
