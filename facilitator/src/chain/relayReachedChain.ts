/**
 * Whether a failed relay broadcast may still have reached the chain. A node that answered the send with a
 * JSON-RPC error refused the transaction: it is in no mempool and can never burn, so the payment's claim can
 * be released. A transport failure (timeout, dropped connection, HTTP error) says nothing about whether the
 * node received the transaction first, so the burn may still land and the answer must be `pending_burn`.
 */
import { BaseError, HttpRequestError, RpcRequestError, TimeoutError, WebSocketRequestError } from "viem";

/** `false` only when the node provably refused the broadcast; `true` whenever the transaction may be out. */
export function relayMayHaveReachedChain(error: unknown): boolean {
  if (!(error instanceof BaseError)) return true;
  const transport = error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError || cause instanceof WebSocketRequestError);
  if (transport) return true;
  return !error.walk((cause) => cause instanceof RpcRequestError);
}
