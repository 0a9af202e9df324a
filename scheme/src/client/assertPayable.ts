import { InsufficientTokenBalanceError } from "./errors.js";
import type { PaymentRequirements } from "../wire/paymentRequirements.js";
import type { PayerChainState } from "./readPayerChain.js";

/**
 * Checks, before anything is signed or sent, that the payer's balance (read by `readPayerChain`, which
 * already refused a wrong chain) covers the amount.
 */
export function assertPayable(parameters: { requirements: PaymentRequirements; state: PayerChainState }): void {
  const { balance } = parameters.state;
  const amount = BigInt(parameters.requirements.amount);
  if (balance < amount) throw new InsufficientTokenBalanceError({ balance, amount });
}
