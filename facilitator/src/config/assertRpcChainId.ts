/** The chain-id guard: signing for one chain while talking to another would burn on the wrong network. */
import { ChainIdMismatchError } from "./errors.js";
import type { FacilitatorConfig } from "./facilitatorConfigSchema.js";
import { rpcUrlKey } from "./rpcUrlKey.js";

/**
 * Throws {@link ChainIdMismatchError} unless the chain id RPC endpoint `index` reports equals `network.chain_id`;
 * the error names the endpoint's key (`network.rpc_urls[i]`), never its URL.
 */
export function assertRpcChainId(config: Pick<FacilitatorConfig, "network">, reportedChainId: number | bigint, index = 0): void {
  const reported = Number(reportedChainId);
  if (reported !== config.network.chain_id) {
    throw new ChainIdMismatchError({ configured: config.network.chain_id, reported, key: rpcUrlKey(config.network, index) });
  }
}
