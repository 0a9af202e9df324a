import type { Bytes32 } from "./bytes32.js";
import type { PaymentRequirements } from "./paymentRequirements.js";
import type { SelfTransferPayload } from "./selfTransferPayload.js";

/** Builds the self-transfer payload for an offer once the payer's burn transfer has a successful receipt. */
export function buildSelfTransferPayload(parameters: { requirements: PaymentRequirements; burnTxHash: Bytes32 }): SelfTransferPayload {
  return { challengeNonce: parameters.requirements.extra.challengeNonce, burnTxHash: parameters.burnTxHash };
}
