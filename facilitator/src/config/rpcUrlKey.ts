/** How messages name one configured RPC endpoint: by the key the operator wrote, never by its URL. */
import type { FacilitatorConfig } from "./facilitatorConfigSchema.js";

/**
 * The configuration key of RPC endpoint `index`: `network.rpc_url` when the file gave one URL under that key,
 * `network.rpc_urls[i]` otherwise.
 *
 * @example
 * rpcUrlKey(config.network, 1); // "network.rpc_urls[1]"
 */
export function rpcUrlKey(network: Pick<FacilitatorConfig["network"], "rpc_key">, index: number): string {
  return network.rpc_key === "rpc_url" ? "network.rpc_url" : `network.rpc_urls[${index}]`;
}
