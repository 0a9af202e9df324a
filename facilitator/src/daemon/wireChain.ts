/**
 * The chain as the daemon sees it: the failover clients over `network.rpc_urls` (each endpoint's health logged
 * when it changes), the finality rule, and the deployment and network every later part settles on. Nothing
 * here asks the chain anything yet: the start-up checks do (startupChecks.ts).
 */
import { toNetwork, type Network } from "@svc/scheme";
import { type Address, getAddress } from "viem";
import { type ChainFinality, createChainFinality, finalityRule } from "../chain/chainFinality.js";
import { type ChainClients, createChainClients } from "../chain/createChainClients.js";
import type { LoadConfigReturnType } from "../config/loadConfig.js";
import type { Logger } from "../log/createLogger.js";

/** What {@link wireChain} reads. */
export type ChainParts = Pick<LoadConfigReturnType, "config" | "secrets"> & { logger: Logger };

/** The contracts a payment is settled and finalized against. */
export type Deployment = { chainId: number; token: Address; verifier: Address; treasury: Address };

/** The chain clients and what is derived from the configuration alone. */
export type ChainWiring = ChainClients & {
  finality: ChainFinality;
  /** `eip155:<chain id>`. */
  network: Network;
  deployment: Deployment;
};

/** Builds the chain clients; `close` closes their WebSocket connections. */
export function wireChain({ config, secrets, logger }: ChainParts): ChainWiring {
  const clients = createChainClients({
    rpcUrls: config.network.rpc_urls,
    chainId: config.network.chain_id,
    relayerPk: secrets.relayerPk,
    minterPk: secrets.minterPk,
    treasuryPk: secrets.treasuryPk,
    // Only changes are logged, so a dead endpoint costs one line, not one per request.
    onEndpointChange: ({ snapshot }) =>
      snapshot.up
        ? logger.info("rpc_endpoint_up", { endpoint: snapshot.endpoint, origin: snapshot.origin })
        : logger.warn("rpc_endpoint_down", {
            endpoint: snapshot.endpoint,
            origin: snapshot.origin,
            error: snapshot.lastError,
            retry_in_ms: snapshot.retryInMs,
          }),
  });
  return {
    ...clients,
    finality: createChainFinality(clients.client, { confirmations: config.network.confirmations, finality: finalityRule(config.network) }),
    network: toNetwork(config.network.chain_id),
    deployment: {
      chainId: config.network.chain_id,
      token: getAddress(config.network.token),
      verifier: getAddress(config.network.verifier),
      treasury: getAddress(config.settlement.treasury),
    },
  };
}
