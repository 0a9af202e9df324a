import { classifyPayload } from "./classifyPayload.js";

/**
 * The semantic content of a payment: what makes two payloads the same payment. It is the challenge nonce plus
 * either the permit triple (payer, permit values and signature, burn-bind signature) or the burn transaction
 * hash, with every hex value lower-cased and every other key dropped. Unknown keys are ignored by the spec, so
 * they must not change which payment this is: otherwise anyone who saw a payload could settle a copy with one
 * added key and lock the payer out of their own answer. `undefined` when the payload is not a valid payload of
 * either shape (then there is no payment to identify).
 */
export type PaymentIdentity =
  | {
      challengeNonce: string;
      payer: string;
      permit: { value: string; nonce: string; deadline: string; v: number; r: string; s: string };
      burnAuthSig: string;
    }
  | { challengeNonce: string; burnTxHash: string };

/** Projects a scheme payload onto its {@link PaymentIdentity}. */
export function paymentIdentity(payload: unknown): PaymentIdentity | undefined {
  const classified = classifyPayload(payload);
  if (classified.kind === "malformed") return undefined;
  if (classified.kind === "self-transfer") {
    const { challengeNonce, burnTxHash } = classified.payload;
    return { challengeNonce: challengeNonce.toLowerCase(), burnTxHash: burnTxHash.toLowerCase() };
  }
  const { challengeNonce, payer, permit, burnAuthSig } = classified.payload;
  return {
    challengeNonce: challengeNonce.toLowerCase(),
    payer: payer.toLowerCase(),
    permit: {
      // Decimal strings are canonical by schema (no sign, no leading zeros), so they compare as written.
      value: permit.value,
      nonce: permit.nonce,
      deadline: permit.deadline,
      v: permit.v,
      r: permit.r.toLowerCase(),
      s: permit.s.toLowerCase(),
    },
    burnAuthSig: burnAuthSig.toLowerCase(),
  };
}
