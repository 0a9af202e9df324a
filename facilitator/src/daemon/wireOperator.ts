/**
 * What an operator sees: the Prometheus metrics, the `/readyz` probe (RPC endpoints, indexer, storage,
 * burn-address stock) and the `/admin/*` views (status, challenges, settlements, withdrawal witnesses).
 */
import type { FacilitatorConfig } from "../config/facilitatorConfigSchema.js";
import type { ChosenPoseidon } from "../challenges/choosePoseidon.js";
import type { AppDependencies } from "../http/appDependencies.js";
import { createFacilitatorMetrics, type FacilitatorMetrics } from "../metrics/createFacilitatorMetrics.js";
import { listAdminSettlements } from "../operator/adminSettlement.js";
import { readAdminStatus } from "../operator/readAdminStatus.js";
import { settlementBacklog } from "../operator/settlementBacklog.js";
import { buildWithdrawalWitness } from "../operator/withdrawalWitness.js";
import { createReadinessProbe, type ReadinessProbe } from "../readiness/createReadinessProbe.js";
import { checkIndexerReadiness, checkRpcReadiness, checkStockReadiness, checkStorageReadiness } from "../readiness/readinessChecks.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";
import { unixNow } from "./unixNow.js";
import type { ChainWiring } from "./wireChain.js";
import type { ChallengeWiring } from "./wireChallenges.js";
import type { JournalWiring } from "./wireJournal.js";
import type { KeySenderWiring } from "./wireKeySenders.js";

// Each readiness check waits this long: a probe answered after it would already be too slow to settle on.
const READINESS_TIMEOUT_MS = 2_000;

/** What {@link wireOperator} reads. */
export type OperatorParts = {
  config: FacilitatorConfig;
  poseidon: ChosenPoseidon;
  chain: Pick<ChainWiring, "client" | "rpcHealth" | "endpointClients" | "relayerAccount" | "treasuryAccount" | "minterAccount">;
  senders: Pick<KeySenderWiring, "relayerDepth">;
  challenges: Pick<ChallengeWiring, "store" | "pool" | "burnSecret">;
  journal: Pick<JournalWiring, "book">;
  storage: FacilitatorStorage;
};

/** The operator's views. */
export type OperatorWiring = {
  metrics: FacilitatorMetrics;
  readiness: ReadinessProbe;
  admin: AppDependencies["admin"];
};

/** Builds the metrics, the readiness probe and the admin views; nothing is read until asked. */
export function wireOperator({ config, poseidon, chain, senders, challenges, journal, storage }: OperatorParts): OperatorWiring {
  const { client, rpcHealth, endpointClients, relayerAccount, treasuryAccount, minterAccount } = chain;
  const { store, pool } = challenges;
  const { book } = journal;
  const poseidonStatus = { implementation: poseidon.implementation.name, path: poseidon.implementation.path ?? null };
  const metrics = createFacilitatorMetrics({
    poolStats: () => pool?.stats(),
    poseidon: poseidonStatus,
    backlog: () => settlementBacklog(book, unixNow()),
    openChallenges: () => store.counts().open,
    relayerQueueDepth: senders.relayerDepth,
    rpcEndpoints: rpcHealth.snapshot,
    gasBalances: async () => {
      const [relayerWei, treasuryWei, minterWei] = await Promise.all([
        client.getBalance({ address: relayerAccount.address }),
        client.getBalance({ address: treasuryAccount.address }),
        minterAccount ? client.getBalance({ address: minterAccount.address }) : undefined,
      ]);
      return { relayer: relayerWei, treasury: treasuryWei, minter: minterWei };
    },
  });
  const readiness = createReadinessProbe({
    checks: {
      rpc: () =>
        checkRpcReadiness({
          endpoints: config.network.rpc_urls.map((url, index) => ({
            endpoint: rpcHealth.snapshot()[index]?.endpoint ?? `rpc#${index}`,
            url,
            requestChainId: () => endpointClients[index]?.getChainId() ?? Promise.reject(new RangeError(`no RPC endpoint ${index}`)),
          })),
          chainId: config.network.chain_id,
          timeoutMs: READINESS_TIMEOUT_MS,
          health: rpcHealth,
        }),
      indexer: () => checkIndexerReadiness({ indexerUrl: config.network.indexer_url, timeoutMs: READINESS_TIMEOUT_MS }),
      journal: () => checkStorageReadiness({ storage, timeoutMs: READINESS_TIMEOUT_MS }),
      stock: () => checkStockReadiness(pool?.stats()),
    },
  });
  const admin: AppDependencies["admin"] = {
    challenges: () => ({ ...store.counts(), maxOpen: config.daemon.max_open_challenges }),
    settlements: (state) => listAdminSettlements(book, state),
    status: () =>
      readAdminStatus({
        profile: config.profile,
        chainId: config.network.chain_id,
        backlog: () => settlementBacklog(book, unixNow()),
        openChallenges: () => store.counts().open,
        rpcEndpoints: rpcHealth.snapshot,
        poolStats: () => pool?.stats(),
        poseidon: poseidonStatus,
        relayer: { address: relayerAccount.address, queueDepth: senders.relayerDepth },
        treasury: { address: treasuryAccount.address },
        minter: minterAccount ? { address: minterAccount.address } : undefined,
        releasedAlone: metrics.releasedAloneTotal,
        decoysShort: metrics.decoysShortTotal,
        witnesses: metrics.witnessStatus,
        balanceOf: (address) => client.getBalance({ address }),
      }),
    withdrawalWitness: async (challengeNonce) => {
      const entry = book.entry(challengeNonce);
      return entry === undefined ? undefined : buildWithdrawalWitness(entry, await challenges.burnSecret(entry.challenge));
    },
  };
  return { metrics, readiness, admin };
}
