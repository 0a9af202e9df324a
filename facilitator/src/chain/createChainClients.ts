/**
 * Chain access for the daemon: one public client over every configured RPC endpoint (failing over in order,
 * see createRpcTransport.ts) whose concurrent calls share a JSON-RPC batch per endpoint (so the independent reads
 * of a verify cost one round trip), and the local signers (relayer, treasury and, when configured, a separate
 * minter).
 */
import { createPublicClient, defineChain, type Chain, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";

import { createRpcTransport, rpcEndpointLabels } from "./createRpcTransport.js";
import { createRpcEndpointHealth, type RpcBackoff, type RpcEndpointChange, type RpcEndpointHealth } from "./rpcEndpointHealth.js";

/** How long a block number read by `getBlockNumber` is reused. */
const BLOCK_NUMBER_CACHE_MS = 1_000;

/** The clients every chain-touching module receives. */
export type ChainClients = {
  chain: Chain;
  client: PublicClient;
  relayerAccount: PrivateKeyAccount;
  /** Signs mints and fee distributions when `SVC_MINTER_PK` names a key other than the relayer's. */
  minterAccount: PrivateKeyAccount | undefined;
  /** Signs custodial fee sweeps only. */
  treasuryAccount: PrivateKeyAccount;
  /** The endpoints' health, shared by the failover transport, readiness, status and metrics. */
  rpcHealth: RpcEndpointHealth;
  /** One client per endpoint, without failover: readiness asks each endpoint directly. */
  endpointClients: readonly PublicClient[];
  /** Closes WebSocket connections to the endpoints. */
  close: () => Promise<void>;
};

/** Parameters of {@link createChainClients}. */
export type CreateChainClientsParameters = {
  /** `network.rpc_urls`, in the order they are tried. */
  rpcUrls: readonly string[];
  chainId: number;
  relayerPk: Hex;
  minterPk?: Hex | undefined;
  treasuryPk: Hex;
  /** Told when an endpoint goes down or comes back (the daemon logs it). */
  onEndpointChange?: ((change: RpcEndpointChange) => void) | undefined;
  /** How long a failed endpoint is passed by; tests shorten it. */
  backoff?: RpcBackoff | undefined;
};

/** Creates the clients for `rpcUrls` on `chainId`; the keys stay inside the returned accounts. */
export function createChainClients(params: CreateChainClientsParameters): ChainClients {
  const chain = defineChain({
    id: params.chainId,
    name: `eip155:${params.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [...params.rpcUrls] } },
  });
  const rpcHealth = createRpcEndpointHealth({ endpoints: rpcEndpointLabels(params.rpcUrls), backoff: params.backoff, onChange: params.onEndpointChange });
  const rpc = createRpcTransport({ urls: params.rpcUrls, chainId: params.chainId, health: rpcHealth });
  const client = createPublicClient({
    chain,
    transport: rpc.transport,
    pollingInterval: 100,
    // Only `getBlockNumber` reads this cache, for lower bounds of log searches (a permit intent's `fromBlock`),
    // where an older block is still correct: the settle's first batch fills it, the intent record reuses it.
    cacheTime: BLOCK_NUMBER_CACHE_MS,
  });
  return {
    chain,
    client,
    rpcHealth,
    endpointClients: rpc.endpoints.map((transport) => createPublicClient({ chain, transport }) as PublicClient),
    close: rpc.close,
    relayerAccount: privateKeyToAccount(params.relayerPk),
    // The relayer's own key given again is no second hand: it must share the relayer's sender and nonces.
    minterAccount:
      params.minterPk === undefined || params.minterPk.toLowerCase() === params.relayerPk.toLowerCase() ? undefined : privateKeyToAccount(params.minterPk),
    treasuryAccount: privateKeyToAccount(params.treasuryPk),
  };
}
