/**
 * Offers and their burn addresses: the challenge store (restored from the journal, so offers issued before a
 * restart still settle), the pool of pre-derived burn addresses over the storage's persisted stock, the issuer,
 * and the reopening of a settled payment's burn secret. Under a profile that issues no offers there is no pool,
 * no stock and no issuer, so no CPU goes into deriving burn addresses.
 */
import type { ProtocolVersion } from "@svc/scheme";
import type { Hex } from "viem";
import { BurnAddressPool, DEFAULT_BURN_ADDRESS_WORKER_IDLE_MS } from "../challenges/burnAddressPool.js";
import { BurnAddressWorker } from "../challenges/burnAddressWorker.js";
import type { BurnTarget } from "../challenges/burnSecretInputs.js";
import { deriveBurnSeed } from "../challenges/burnSeed.js";
import type { BurnSecret, ChallengeRecord } from "../challenges/challengeRecord.js";
import { ChallengeStore } from "../challenges/challengeStore.js";
import type { ChosenPoseidon } from "../challenges/choosePoseidon.js";
import { type ChallengeIssuer, createChallengeIssuer } from "../challenges/createChallengeIssuer.js";
import { createOnDemandSearcher } from "../challenges/onDemandSearcher.js";
import { reopenBurnSecretOffThread } from "../challenges/reopenBurnSecret.js";
import type { TokenFacts } from "../chain/readTokenFacts.js";
import type { Capabilities } from "../config/capabilities.js";
import type { LoadConfigReturnType } from "../config/loadConfig.js";
import { fromJournaledChallenge } from "../journal/journaledChallenge.js";
import type { Logger } from "../log/createLogger.js";
import type { ChainWiring } from "./wireChain.js";
import type { JournalWiring } from "./wireJournal.js";
import type { StorageWiring } from "./wireStorage.js";

/** What {@link wireChallenges} reads. */
export type ChallengeParts = Pick<LoadConfigReturnType, "config" | "secrets"> &
  StorageWiring & {
    capabilities: Pick<Capabilities, "issuesOffers">;
    chain: Pick<ChainWiring, "deployment">;
    poseidon: ChosenPoseidon;
    journal: Pick<JournalWiring, "book" | "restoredChallenges">;
    token: TokenFacts;
    logger: Logger;
  };

/** The challenge side of the daemon. */
export type ChallengeWiring = {
  /** The burn-address seed, derived from the treasury key. */
  seed: Hex;
  store: ChallengeStore;
  pool: BurnAddressPool | undefined;
  issuer: ChallengeIssuer | undefined;
  /** A payment's burn secret: the live challenge's, or re-derived from its nonce off-thread after a restart. */
  burnSecret: (challenge: { challengeNonce: Hex; protocol: ProtocolVersion }) => Promise<BurnSecret>;
  /** Stops the pool's workers and the on-demand search worker. */
  close: () => Promise<void>;
};

/** Restores the challenge store and starts the burn-address pool. */
export async function wireChallenges(parts: ChallengeParts): Promise<ChallengeWiring> {
  const { config, capabilities, storage, owner, poseidon, journal, token, logger } = parts;
  const seed = deriveBurnSeed(parts.secrets.treasuryPk);
  const burnTarget: BurnTarget = { protocol: config.network.protocol, chainId: config.network.chain_id, treasury: parts.chain.deployment.treasury };
  const stock = capabilities.issuesOffers ? await storage.openBurnAddressStock({ ...burnTarget, seed }, owner) : undefined;
  if (stock) logger.info("burn_address_stock_restored", { entries: stock.restored.length, discarded: stock.discarded ?? null });
  const store = new ChallengeStore({
    maxOpenChallenges: config.daemon.max_open_challenges,
    retentionSeconds: config.settlement.expired_challenge_retention_seconds,
  });
  const pool = capabilities.issuesOffers
    ? new BurnAddressPool({
        ...burnTarget,
        seed,
        size: config.daemon.burn_address_pool_size,
        maxSize: config.daemon.burn_address_pool_max_size,
        workers: config.daemon.burn_address_workers,
        poseidon: poseidon.implementation,
        stock,
      })
    : undefined;
  for (const challenge of journal.restoredChallenges) {
    store.restore(fromJournaledChallenge(challenge), journal.book.entry(challenge.challengeNonce) !== undefined);
  }
  const recordChallenge = (record: ChallengeRecord) => storage.challenges.put(record);
  const issuer = pool
    ? createChallengeIssuer({ config, seed, pool, store, record: recordChallenge, tokenHasPermit: token.permit, tokenDecimals: token.decimals })
    : undefined;
  const secretSearcher = createOnDemandSearcher({
    start: () => new BurnAddressWorker(poseidon.implementation),
    idleMs: DEFAULT_BURN_ADDRESS_WORKER_IDLE_MS,
  });
  const burnSecret: ChallengeWiring["burnSecret"] = async ({ challengeNonce, protocol }) => {
    const live = store.get(challengeNonce);
    if (live?.record.burn) return live.record.burn;
    return reopenBurnSecretOffThread(secretSearcher, seed, { ...burnTarget, protocol }, challengeNonce);
  };
  return {
    seed,
    store,
    pool,
    issuer,
    burnSecret,
    close: async () => {
      await pool?.close();
      await secretSearcher.close();
    },
  };
}
