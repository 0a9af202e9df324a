import { BaseError as ViemBaseError, encodeFunctionData, HttpRequestError, keccak256, RpcError, TimeoutError } from "viem";

import { BurnBroadcastError, BurnRevertedError, BurnUnconfirmedError } from "./errors.js";
import { buildSelfTransferPayload } from "../wire/buildSelfTransferPayload.js";
import type { Offer } from "../wire/offer.js";
import type { SelfTransferPayload } from "../wire/selfTransferPayload.js";
import { zerc20TokenAbi } from "../zerc20/abis.js";
import { assertOfferLife } from "./assertOfferLife.js";
import { assertPayable } from "./assertPayable.js";
import type { PayerClients } from "./payerClients.js";
import type { OnPaymentPhase } from "./paymentPhase.js";
import { readPayerChain } from "./readPayerChain.js";
import { SELF_TRANSFER_MIN_SECONDS_LEFT } from "./selfTransferMargin.js";

/** How long the payer waits for the burn's receipt by default before calling the outcome unknown. */
export const DEFAULT_RECEIPT_TIMEOUT_MS = 60_000;

/** Inputs to `createSelfTransferPayment`. */
export type CreateSelfTransferPaymentParameters = PayerClients & {
  /** The offer being paid, decoded from validated requirements. */
  offer: Offer;
  /** How long to wait for a receipt; default `DEFAULT_RECEIPT_TIMEOUT_MS`. */
  receiptTimeoutMs?: number | undefined;
  /** Clock in milliseconds; injected so tests can pin it. */
  now?: (() => number) | undefined;
  /** Progress callback; `broadcasting` carries the hash before the transaction is sent. */
  onPhase?: OnPaymentPhase | undefined;
};

/**
 * Pays an offer by burning directly: refuses to start within the last `SELF_TRANSFER_MIN_SECONDS_LEFT`
 * seconds of the offer, sends `transfer(payTo, amount)` from the payer's account, waits for a successful
 * receipt and returns the payload naming the burn. Throws `BurnBroadcastError` when nothing was sent,
 * `BurnRevertedError` on a reverted burn and `BurnUnconfirmedError` when the burn's fate is unknown.
 *
 * @example
 * const payload = await createSelfTransferPayment({ offer, publicClient, walletClient });
 */
export async function createSelfTransferPayment(parameters: CreateSelfTransferPaymentParameters): Promise<SelfTransferPayload> {
  const { offer, publicClient, walletClient, onPhase } = parameters;
  const now = parameters.now ?? Date.now;
  const checkLife = () => assertOfferLife({ offer, nowMs: now(), minimumSeconds: SELF_TRANSFER_MIN_SECONDS_LEFT });
  checkLife();
  const payer = walletClient.account.address;
  const data = encodeFunctionData({ abi: zerc20TokenAbi, functionName: "transfer", args: [offer.payTo, offer.amount] });
  // The payer's state and the transaction's nonce, fees and gas are read together (one batched round trip on a
  // batching transport). The state is judged first: a payer who cannot pay hears why, not the failed estimate.
  const [state, prepared] = await Promise.allSettled([
    readPayerChain({ publicClient, offer, payer, permit: false }),
    walletClient.prepareTransactionRequest({ account: walletClient.account, chain: walletClient.chain, to: offer.asset, data }),
  ]);
  if (state.status === "rejected") throw state.reason;
  assertPayable({ offer, state: state.value });

  await onPhase?.({ phase: "signing" });
  let serializedTransaction: `0x${string}`;
  try {
    if (prepared.status === "rejected") throw prepared.reason;
    const { nonce, gas, maxFeePerGas, maxPriorityFeePerGas, gasPrice } = prepared.value;
    const fees =
      maxFeePerGas !== undefined && maxPriorityFeePerGas !== undefined
        ? ({ type: "eip1559", maxFeePerGas, maxPriorityFeePerGas } as const)
        : ({ type: "legacy", gasPrice } as const);
    // Signed by the local account itself, for the offer's chain, which `readPayerChain` has matched against the
    // RPC's: viem's signing action would ask the RPC for its chain id again, one more round trip before the burn.
    serializedTransaction = await walletClient.account.signTransaction({ chainId: offer.chainId, to: offer.asset, data, nonce, gas, ...fees });
  } catch (cause) {
    throw new BurnBroadcastError({ cause });
  }
  const txHash = keccak256(serializedTransaction);
  // Checked again right before sending: preparing the transaction took RPC round trips.
  checkLife();
  await onPhase?.({ phase: "broadcasting", txHash });
  try {
    await walletClient.sendRawTransaction({ serializedTransaction });
  } catch (cause) {
    if (isNodeRejection(cause)) throw new BurnBroadcastError({ cause });
    throw new BurnUnconfirmedError({ txHash, cause });
  }

  await onPhase?.({ phase: "waiting-for-receipt", txHash });
  let status: "success" | "reverted";
  try {
    ({ status } = await publicClient.waitForTransactionReceipt({
      hash: txHash,
      timeout: parameters.receiptTimeoutMs ?? DEFAULT_RECEIPT_TIMEOUT_MS,
    }));
  } catch (cause) {
    throw new BurnUnconfirmedError({ txHash, cause });
  }
  if (status !== "success") throw new BurnRevertedError({ txHash });
  return buildSelfTransferPayload({ offer, burnTxHash: txHash });
}

/**
 * True when the node answered the broadcast with a JSON-RPC error, so the transaction was not accepted. A
 * transport failure (no answer, HTTP error, timeout) is not a rejection: the node may have taken it.
 */
function isNodeRejection(error: unknown): boolean {
  if (!(error instanceof ViemBaseError)) return false;
  const transportFailure = error.walk((inner) => inner instanceof HttpRequestError || inner instanceof TimeoutError);
  return transportFailure === null && error.walk((inner) => inner instanceof RpcError) !== null;
}
