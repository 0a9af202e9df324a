import { InsufficientTokenBalanceError } from "./errors.js";
import type { Offer } from "../wire/offer.js";
import type { PayerChainState } from "./readPayerChain.js";

/**
 * Checks, before anything is signed or sent, that the payer's balance (read by `readPayerChain`, which
 * already refused a wrong chain) covers the amount.
 */
export function assertPayable(parameters: { offer: Pick<Offer, "amount">; state: PayerChainState }): void {
  const { balance } = parameters.state;
  const { amount } = parameters.offer;
  if (balance < amount) throw new InsufficientTokenBalanceError({ balance, amount });
}
