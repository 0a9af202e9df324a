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
