/** The chain-id guard: signing for one chain while talking to another would burn on the wrong network. */
import { ChainIdMismatchError } from "./errors.js";
import type { FacilitatorConfig } from "./facilitatorConfigSchema.js";

/** Throws {@link ChainIdMismatchError} unless the chain id the RPC reports equals `network.chain_id`. */
export function assertRpcChainId(config: Pick<FacilitatorConfig, "network">, reportedChainId: number | bigint): void {
  const reported = Number(reportedChainId);
  if (reported !== config.network.chain_id) {
    throw new ChainIdMismatchError({ configured: config.network.chain_id, reported });
  }
}
