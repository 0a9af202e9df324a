/**
 * The mint loop: accepted payments leased from the storage's finalize queue, their reads batched (one
 * decoy-mixed `/proofs` request per pass, transfers from this node's own RPC by block range), reorgs watched,
 * proofs from the prover opened at start, mints and fee distributions from the minter's key and fee sweeps from
 * the treasury's. It changes chain state only where the profile lets it and a prover runs. Its first pass runs
 * one interval after it is built.
 */
import type { Capabilities } from "../config/capabilities.js";
import type { FacilitatorConfig } from "../config/facilitatorConfigSchema.js";
import { createFinalizeLoop, type FinalizeLoop } from "../finalize/createFinalizeLoop.js";
import { createFinalizePrefetch } from "../finalize/createFinalizePrefetch.js";
import { createTransferScanner } from "../finalize/createTransferScanner.js";
import { finalizeEntry } from "../finalize/finalizeEntry.js";
import { FINALIZE_WAITING_REASON } from "../finalize/finalizeReasons.js";
import { deriveScheduleKey } from "../finalize/finalizeSchedule.js";
import { createIndexerClient } from "../finalize/indexerClient.js";
import type { ProverAdapter } from "../finalize/provers/proverAdapter.js";
import { sweepFees, sweepIntervalSeconds } from "../finalize/sweepFees.js";
import { createReorgWatch } from "../finalize/watchReorgs.js";
import { createWitnessRejections } from "../finalize/witnessRejections.js";
import type { Logger } from "../log/createLogger.js";
import { instrumentFinalize } from "../metrics/instrumentSettlement.js";
import { unixNow } from "./unixNow.js";
import type { ChainWiring } from "./wireChain.js";
import type { ChallengeWiring } from "./wireChallenges.js";
import type { HistoryWiring } from "./wireHistory.js";
import type { JournalWiring } from "./wireJournal.js";
import type { KeySenderWiring } from "./wireKeySenders.js";
import type { OperatorWiring } from "./wireOperator.js";
import type { StorageWiring } from "./wireStorage.js";

// With one process a lease only outlives a pass that threw; the PostgreSQL default, for one behaviour.
const EMBEDDED_FINALIZE_LEASE_MS = 60_000;

/** What {@link wireFinalize} reads. */
export type FinalizeParts = StorageWiring & {
  config: FacilitatorConfig;
  capabilities: Pick<Capabilities, "finalizes">;
  prover: ProverAdapter | undefined;
  chain: Pick<ChainWiring, "client" | "deployment" | "finality">;
  senders: Pick<KeySenderWiring, "relayer" | "minter" | "treasury">;
  challenges: Pick<ChallengeWiring, "seed" | "burnSecret">;
  journal: Pick<JournalWiring, "book" | "follower" | "record">;
  history: Pick<HistoryWiring, "recorder">;
  operator: Pick<OperatorWiring, "metrics">;
  logger: Logger;
};

/** The running loop; `loop.stop()` stops it. */
export type FinalizeWiring = { loop: FinalizeLoop };

/** Builds and starts the finalize loop. */
export function wireFinalize(parts: FinalizeParts): FinalizeWiring {
  const { config, prover, chain, senders, challenges, journal, storage, logger } = parts;
  const { metrics } = parts.operator;
  const { client, deployment, finality } = chain;
  const { book, record } = journal;
  const indexer = createIndexerClient({ url: config.network.indexer_url, chainId: config.network.chain_id, token: deployment.token });
  // One batched, decoy-mixed /proofs request per pass; transfers come from this node's own RPC, by block range.
  const reads = createFinalizePrefetch({
    scanner: createTransferScanner({ client, token: deployment.token }),
    indexer,
    client,
    verifier: deployment.verifier,
    atFinalBlock: finality.atFinalBlock,
  });
  const reorgWatch = createReorgWatch({
    client,
    finality,
    book,
    record,
    relayer: senders.relayer,
    logger,
    now: unixNow,
    onReorg: metrics.reorg,
  });
  const witnessRejections = createWitnessRejections();
  const loop = createFinalizeLoop({
    active: parts.capabilities.finalizes && prover !== undefined,
    intervalMs: config.daemon.finalize_interval_ms,
    deployment,
    book,
    journal: record,
    history: parts.history.recorder,
    logger,
    now: unixNow,
    onPass: metrics.finalizePass,
    schedule: { policy: config.finalize, key: deriveScheduleKey(challenges.seed) },
    prefetch: (entries) => reads.prefetch(entries),
    watch: reorgWatch.watch,
    queue: {
      port: storage.finalizeQueue,
      owner: parts.owner,
      leaseMs: config.storage?.finalize_lease_ms ?? EMBEDDED_FINALIZE_LEASE_MS,
      catchUp: journal.follower.catchUp,
    },
    finalize: instrumentFinalize(metrics, (entry) =>
      prover
        ? finalizeEntry(
            {
              client,
              relayer: senders.minter,
              prover,
              indexer: reads.indexer,
              transfers: reads.transfers,
              rootWait: reads.rootWait,
              provedIndex: reads.provedIndex,
              witnessRejections,
              deployment,
              burnSecret: challenges.burnSecret,
            },
            entry,
          )
        : Promise.resolve({ kind: "waiting", reason: FINALIZE_WAITING_REASON.noProver }),
    ),
    sweepFees: (owing) =>
      sweepFees(
        {
          client,
          fee: config.fee,
          token: deployment.token,
          treasury: deployment.treasury,
          treasurySender: senders.treasury,
          minter: senders.minter,
          intervalSeconds: sweepIntervalSeconds(config),
          lastSweepAt: () => book.lastFeeSweepAt,
          journal: record,
          logger,
          now: unixNow,
        },
        owing,
      ),
  });
  return { loop };
}
