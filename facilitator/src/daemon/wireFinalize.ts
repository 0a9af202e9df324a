/**
 * The mint loop: accepted payments leased from the storage's finalize queue, their reads batched (transfers
 * from this node's own RPC by block range; Merkle paths from the followed transfer tree under `[finalize]
 * witnesses = "self"`, or one decoy-mixed `/proofs` request per pass under `"indexer"`), reorgs watched,
 * proofs from the prover opened at start, mints and fee distributions from the minter's key and fee sweeps from
 * the treasury's. It changes chain state only where the profile lets it and a prover runs. Its first pass runs
 * one interval after it is built.
 */
import { zerc20Protocol } from "@svc/scheme";
import { type Address, getAddress } from "viem";
import type { Capabilities } from "../config/capabilities.js";
import type { FacilitatorConfig } from "../config/facilitatorConfigSchema.js";
import { createFinalizeLoop, type FinalizeLoop } from "../finalize/createFinalizeLoop.js";
import { createFinalizePrefetch } from "../finalize/createFinalizePrefetch.js";
import { createTransferScanner } from "../finalize/createTransferScanner.js";
import { finalizeEntry } from "../finalize/finalizeEntry.js";
import { FINALIZE_WAITING_REASON } from "../finalize/finalizeReasons.js";
import { deriveScheduleKey } from "../finalize/finalizeSchedule.js";
import { witnessWaiting } from "../finalize/followedWitnesses.js";
import { createIndexerClient } from "../finalize/indexerClient.js";
import type { ProverAdapter } from "../finalize/provers/proverAdapter.js";
import { sweepFees, sweepIntervalSeconds } from "../finalize/sweepFees.js";
import { createReorgWatch } from "../finalize/watchReorgs.js";
import { createSelfWitnesses, type SelfWitnesses, witnessStateBinding } from "../finalize/selfWitnesses.js";
import { createWitnessRejections } from "../finalize/witnessRejections.js";
import { createTreeFollower } from "../witnesses/createTreeFollower.js";
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

/** The running loop (`loop.stop()` stops it) and, under `witnesses = "self"`, the transfer-tree follower. */
export type FinalizeWiring = { loop: FinalizeLoop; witnesses: SelfWitnesses | undefined };

/** Builds and starts the finalize loop. */
export function wireFinalize(parts: FinalizeParts): FinalizeWiring {
  const { config, prover, chain, senders, challenges, journal, storage, logger } = parts;
  const { metrics } = parts.operator;
  const { client, deployment, finality } = chain;
  const { book, record } = journal;
  const witnesses = config.finalize.witnesses === "self" ? wireSelfWitnesses(parts) : undefined;
  // Under "self" the indexer is never asked for a path: the follower answers in its shape. Under "indexer", one
  // batched, decoy-mixed /proofs request per pass. Transfers come from this node's own RPC, by block range.
  const indexer = witnesses?.indexer ?? createIndexerClient({ url: config.network.indexer_url, chainId: config.network.chain_id, token: deployment.token });
  const reads = createFinalizePrefetch({
    scanner: createTransferScanner({ client, token: deployment.token, decoys: witnesses === undefined }),
    indexer,
    client,
    verifier: deployment.verifier,
    atFinalBlock: finality.atFinalBlock,
    decoys: witnesses === undefined,
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
    onSettledForGood: (entry) => witnesses?.release([entry.challenge.payTo]),
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
    // Every active pass: the follower moves up to the latest proved root even when nothing is to be minted, so
    // a payment finds it in step rather than waiting for a catch-up.
    watch: async (entries) => {
      await reorgWatch.watch(entries);
      await witnesses?.sync(undefined);
    },
    queue: {
      port: storage.finalizeQueue,
      owner: parts.owner,
      leaseMs: config.storage?.finalize_lease_ms ?? EMBEDDED_FINALIZE_LEASE_MS,
      catchUp: journal.follower.catchUp,
    },
    finalize: instrumentFinalize(metrics, async (entry) => {
      if (!prover) return { kind: "waiting", reason: FINALIZE_WAITING_REASON.noProver };
      const outcome = await finalizeEntry(
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
      ).catch((error: unknown) => {
        const waiting = witnesses === undefined ? undefined : witnessWaiting(error);
        if (waiting === undefined) throw error;
        return waiting;
      });
      // A failed payment's paths are not needed any more. A minted one keeps them until the reorg watch sees its
      // mint final: a reorg that takes the mint back reopens the payment, to be minted again from them.
      if (outcome.kind === "failed") witnesses?.release([entry.challenge.payTo]);
      return outcome;
    }),
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
  return { loop, witnesses };
}

/**
 * The follower for `witnesses = "self"`: from the saved state, or from the token's deployment block. Our leaves
 * are those sent to the burn address of a challenge the storage knows (issued, so a burn that lands before
 * its payment is accepted is kept too) or of a payment the book holds (whose challenge may be past retention).
 */
function wireSelfWitnesses(parts: FinalizeParts): SelfWitnesses {
  const { config, chain, storage, journal, logger } = parts;
  const { client, deployment, finality } = chain;
  let booked = new Set<string>();
  const bookedBurnAddresses = () =>
    new Set([...journal.book.list("accepted"), ...journal.book.openIntents()].map((entry) => entry.challenge.payTo.toLowerCase()));
  const isOurs = async (to: Address) => booked.has(to.toLowerCase()) || (await storage.challenges.findByPayTo(getAddress(to))) !== undefined;
  const selfWitnesses = createSelfWitnesses({
    create: (state) =>
      createTreeFollower({
        client,
        token: deployment.token,
        verifier: deployment.verifier,
        protocol: zerc20Protocol(config.network.protocol),
        finality,
        isOurs,
        state,
      }),
    deployBlock: BigInt(config.network.deploy_block ?? 0),
    binding: witnessStateBinding(config.network.chain_id, deployment.token),
    store: storage.witnessState,
    logger,
    onProgress: parts.operator.metrics.witnessProgress,
  });
  return {
    ...selfWitnesses,
    sync: (provedIndex) => {
      booked = bookedBurnAddresses();
      return selfWitnesses.sync(provedIndex);
    },
  };
}
