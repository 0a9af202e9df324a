/**
 * Chain access for the daemon: one public client whose concurrent calls share a JSON-RPC batch (so the
 * independent reads of a verify cost one round trip), and the local signers (relayer, treasury and, when
 * configured, a separate minter).
 */
import { createPublicClient, defineChain, http, type Chain, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";

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
};

/** Creates the clients for `rpcUrl` on `chainId`; the keys stay inside the returned accounts. */
export function createChainClients(params: { rpcUrl: string; chainId: number; relayerPk: Hex; minterPk?: Hex | undefined; treasuryPk: Hex }): ChainClients {
  const chain = defineChain({
    id: params.chainId,
    name: `eip155:${params.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [params.rpcUrl] } },
  });
  const client = createPublicClient({
    chain,
    transport: http(params.rpcUrl, { batch: { wait: 0 }, retryCount: 0, timeout: 10_000 }),
    pollingInterval: 100,
    // Only `getBlockNumber` reads this cache, for lower bounds of log searches (a permit intent's `fromBlock`),
    // where an older block is still correct: the settle's first batch fills it, the intent record reuses it.
    cacheTime: BLOCK_NUMBER_CACHE_MS,
  });
  return {
    chain,
    client,
    relayerAccount: privateKeyToAccount(params.relayerPk),
    // The relayer's own key given again is no second hand: it must share the relayer's sender and nonces.
    minterAccount:
      params.minterPk === undefined || params.minterPk.toLowerCase() === params.relayerPk.toLowerCase() ? undefined : privateKeyToAccount(params.minterPk),
    treasuryAccount: privateKeyToAccount(params.treasuryPk),
  };
}
