/**
 * Re-derives a burn secret from its payment id alone. After a restart the journal holds only the payment id
 * (never the secret), and the derivation is deterministic: same seed, chain, treasury and id give the same
 * tweak, secret base and therefore the same smallest proof-of-work nonce the pool's worker found.
 */
import { deriveBurnAddress, zerc20Protocol } from "@svc/scheme";
import type { Hex } from "viem";
import type { BurnAddressWorker } from "./burnAddressWorker.js";

import { type BurnTarget, burnSecretInputs } from "./burnSecretInputs.js";
import type { BurnSecret } from "./challengeRecord.js";
import { completeSearchedBurnSecret } from "./completeBurnSecret.js";

/**
 * Rebuilds the full {@link BurnSecret} of `paymentId`, running the proof-of-work search synchronously
 * (tens of milliseconds with the native Poseidon, about a second with `poseidon-lite`): call it during
 * recovery, never on a request path.
 *
 * @example
 * const burn = reopenBurnSecret(seed, { protocol: "zerc20-v2", chainId: 31337, treasury }, entry.paymentId);
 */
export function reopenBurnSecret(seed: Hex, target: BurnTarget, paymentId: Hex): BurnSecret {
  const inputs = burnSecretInputs(seed, target, paymentId);
  const { burnAddress, secret } = deriveBurnAddress(zerc20Protocol(target.protocol), inputs.recipientFr, inputs.secretBase);
  return { paymentId, tweak: inputs.tweak, secret, recipientHash: inputs.recipientHash, burnAddress };
}

/**
 * {@link reopenBurnSecret} with the proof-of-work search on `worker`, so the daemon's event loop stays free;
 * the worker checks its answer with the reference hash.
 */
export async function reopenBurnSecretOffThread(worker: Pick<BurnAddressWorker, "search">, seed: Hex, target: BurnTarget, paymentId: Hex): Promise<BurnSecret> {
  const inputs = burnSecretInputs(seed, target, paymentId);
  return completeSearchedBurnSecret(inputs, await worker.search(inputs));
}
