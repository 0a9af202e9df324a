/** Errors of the chain access layer. */
import { BaseError } from "../errors/base.js";

/**
 * Thrown inside the failover transport when a request passes a backed-off RPC endpoint by without contacting it;
 * the transport moves on to the next endpoint, so callers see it only if every endpoint was passed by at once.
 */
export class RpcEndpointSkippedError extends BaseError {
  override name = "RpcEndpointSkippedError";
  /** The endpoint's label (`rpc#0`), never its URL. */
  readonly endpoint: string;

  constructor({ endpoint }: { endpoint: string }) {
    super(`RPC endpoint ${endpoint} is backed off after failures; passed by without contacting it.`);
    this.endpoint = endpoint;
  }
}

/**
 * Thrown inside the failover transport when an RPC endpoint answers `eth_chainId` with another chain than
 * `network.chain_id`: the request it was checked for is not sent there, and the transport moves on.
 */
export class RpcEndpointChainError extends BaseError {
  override name = "RpcEndpointChainError";
  /** The endpoint's label (`rpc#0`), never its URL. */
  readonly endpoint: string;
  /** The chain id it reported. */
  readonly reported: number;

  constructor({ endpoint, expected, reported }: { endpoint: string; expected: number; reported: number }) {
    super(`RPC endpoint ${endpoint} serves chain ${reported}, not ${expected}; not used until it serves ${expected}.`);
    this.endpoint = endpoint;
    this.reported = reported;
  }
}
