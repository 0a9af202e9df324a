/**
 * Turns a proof-of-work nonce into the burn secret it opens, checked against the reference `poseidon-lite` hash
 * either here (a restored stock entry: one hash on the calling thread) or on the worker that searched it (a
 * fresh derivation: the hash came back with the nonce, so the event loop only checks its bits).
 */
import { BN254_FIELD_MODULUS, burnAddressFromHash, meetsBurnAddressPow, openBurnAddress, zerc20Protocol } from "@svc/scheme";

import type { BurnNonce } from "./burnAddressWorker.js";
import type { BurnSecretInputs } from "./burnSecretInputs.js";
import type { BurnSecret } from "./challengeRecord.js";
import { BurnAddressVerificationError } from "./errors.js";

/** The burn secret of `nonce`, hashed here with `poseidon-lite` (one Poseidon call). */
export function completeBurnSecret(inputs: BurnSecretInputs, nonce: bigint): BurnSecret {
  const secret = (inputs.secretBase + nonce) % BN254_FIELD_MODULUS;
  const burnAddress = openBurnAddress(zerc20Protocol(inputs.protocol), inputs.recipientFr, secret);
  if (burnAddress === undefined) throw new BurnAddressVerificationError("the hash misses the proof of work");
  return { paymentId: inputs.paymentId, tweak: inputs.tweak, secret, recipientHash: inputs.recipientHash, burnAddress };
}

/** The burn secret of a worker's answer, whose reference hash the worker computed. */
export function completeSearchedBurnSecret(inputs: BurnSecretInputs, found: BurnNonce): BurnSecret {
  if (!meetsBurnAddressPow(zerc20Protocol(inputs.protocol), found.hash)) throw new BurnAddressVerificationError("the hash misses the proof of work");
  const secret = (inputs.secretBase + found.nonce) % BN254_FIELD_MODULUS;
  return { paymentId: inputs.paymentId, tweak: inputs.tweak, secret, recipientHash: inputs.recipientHash, burnAddress: burnAddressFromHash(found.hash) };
}
