/**
 * Re-derives a burn secret from its payment id alone. After a restart the journal holds only the payment id
 * (never the secret), and the derivation is deterministic: same seed, chain, treasury and id give the same
 * tweak, secret base and therefore the same smallest proof-of-work nonce the pool's worker found.
 */
import { deriveBurnAddress } from "@svc/scheme";
import type { Address, Hex } from "viem";

import { burnSecretInputs } from "./burnSecretInputs.js";
import type { BurnSecret } from "./challengeRecord.js";

/**
 * Rebuilds the full {@link BurnSecret} of `paymentId`, running the proof-of-work search synchronously
 * (about a second of CPU): call it during recovery, never on a request path.
 *
 * @example
 * const burn = reopenBurnSecret(seed, config.network.chain_id, config.settlement.treasury, entry.paymentId);
 */
export function reopenBurnSecret(seed: Hex, chainId: number, treasury: Address, paymentId: Hex): BurnSecret {
  const inputs = burnSecretInputs(seed, chainId, treasury, paymentId);
  const { burnAddress, secret } = deriveBurnAddress(inputs.recipientFr, inputs.secretBase);
  return { paymentId, tweak: inputs.tweak, secret, recipientHash: inputs.recipientHash, burnAddress };
}
