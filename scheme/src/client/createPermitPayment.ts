import { buildPermitPayload } from "../eip712/buildPermitPayload.js";
import { buildBurnAuthorizationTypedData } from "../eip712/burnAuthorizationTypedData.js";
import { getPermitFields } from "../eip712/getPermitFields.js";
import { buildPermitTypedData } from "../eip712/permitTypedData.js";
import type { Offer } from "../wire/offer.js";
import type { PermitPayload } from "../wire/permitPayload.js";
import { assertOfferLife } from "./assertOfferLife.js";
import { assertPayable } from "./assertPayable.js";
import type { PayerClients } from "./payerClients.js";
import type { OnPaymentPhase } from "./paymentPhase.js";
import { readPayerChain } from "./readPayerChain.js";

/** Inputs to `createPermitPayment`. */
export type CreatePermitPaymentParameters = PayerClients & {
  /** The offer being paid, decoded from validated requirements. */
  offer: Offer;
  /** Clock in milliseconds; injected so tests can pin it. */
  now?: (() => number) | undefined;
  /** Progress callback; see `PaymentPhaseEvent`. */
  onPhase?: OnPaymentPhase | undefined;
};

/**
 * Signs the gasless payment for an offer: the EIP-2612 `Permit` (live token nonce and `name()`, spender =
 * `extra.helper`) and the `BurnAuthorization`, then assembles the permit payload. Chain id, balance, nonce
 * and name are read in one batch (the chain id and the name once per client). Nothing is broadcast; the
 * facilitator relays the burn. Throws `PermitUnavailableError` for an offer without `extra.helper` rather
 * than falling back to a gas-paying transfer.
 *
 * @example
 * const payload = await createPermitPayment({ offer, publicClient, walletClient });
 */
export async function createPermitPayment(parameters: CreatePermitPaymentParameters): Promise<PermitPayload> {
  const { offer, publicClient, walletClient, onPhase } = parameters;
  const now = parameters.now ?? Date.now;
  // First, so an offer without the gasless path fails before any RPC call or signature.
  getPermitFields(offer);
  assertOfferLife({ offer, nowMs: now(), minimumSeconds: 0 });
  const payer = walletClient.account.address;
  const state = await readPayerChain({ publicClient, offer, payer, permit: true });
  assertPayable({ offer, state });
  const { nonce, tokenName } = state;

  await onPhase?.({ phase: "signing" });
  const permitSignature = await walletClient.signTypedData({
    account: walletClient.account,
    ...buildPermitTypedData({ offer, payer, nonce, tokenName }),
  });
  const burnAuthorizationSignature = await walletClient.signTypedData({
    account: walletClient.account,
    ...buildBurnAuthorizationTypedData({ offer, payer }),
  });
  return buildPermitPayload({ offer, payer, nonce, permitSignature, burnAuthorizationSignature });
}
