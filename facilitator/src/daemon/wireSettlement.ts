/**
 * `/verify` and `/settle`: the settlement core over the chain, the relayer and the journal, shared across
 * instances through the storage's settle claims. Relays signed before a restart are resumed here, before the
 * daemon listens and before anything new is signed.
 */
import type { Capabilities } from "../config/capabilities.js";
import type { FacilitatorConfig } from "../config/facilitatorConfigSchema.js";
import type { Logger } from "../log/createLogger.js";
import { createSettlementService, type SettlementService } from "../settlement/createSettlementService.js";
import { shareSettlement } from "../settlement/shareSettlement.js";
import { unixNow } from "./unixNow.js";
import type { ChainWiring } from "./wireChain.js";
import type { ChallengeWiring } from "./wireChallenges.js";
import type { HistoryWiring } from "./wireHistory.js";
import type { JournalWiring } from "./wireJournal.js";
import type { KeySenderWiring } from "./wireKeySenders.js";
import type { StorageWiring } from "./wireStorage.js";

// A settle claim outlives the permit receipt timeout by this much before another instance may take it over.
const SETTLE_CLAIM_MARGIN_MS = 10_000;

/** What {@link wireSettlement} reads. */
export type SettlementParts = StorageWiring & {
  config: FacilitatorConfig;
  capabilities: Pick<Capabilities, "acceptsPayments">;
  chain: Pick<ChainWiring, "client" | "finality" | "network" | "deployment">;
  senders: Pick<KeySenderWiring, "relayer">;
  challenges: Pick<ChallengeWiring, "store">;
  journal: Pick<JournalWiring, "book" | "follower" | "record">;
  history: Pick<HistoryWiring, "recorder">;
  logger: Logger;
};

/** The daemon's settlement; its `inflight()` is what a shutdown waits for. */
export type SettlementWiring = { settlement: SettlementService };

/** Builds the settlement and resumes the relays a stop left open. */
export async function wireSettlement(parts: SettlementParts): Promise<SettlementWiring> {
  const { config, chain, challenges, journal, storage, logger } = parts;
  const core = createSettlementService({
    capabilities: parts.capabilities,
    network: chain.network,
    deployment: chain.deployment,
    client: chain.client,
    finality: chain.finality,
    relayer: parts.senders.relayer,
    challenges: challenges.store,
    book: journal.book,
    record: journal.record,
    history: parts.history.recorder,
    logger,
    now: unixNow,
    permitReceiptTimeoutMs: config.settlement.permit_receipt_timeout_ms,
  });
  const settlement = shareSettlement({
    settlement: core,
    catchUp: journal.follower.catchUp,
    issued: storage.challenges,
    store: challenges.store,
    book: journal.book,
    claims: storage.settleClaims,
    owner: parts.owner,
    // A settle waits at most the permit receipt timeout on the chain; the margin covers its checks.
    claimLeaseMs: config.settlement.permit_receipt_timeout_ms + SETTLE_CLAIM_MARGIN_MS,
    network: chain.network,
  });
  // Relays signed before a restart are watched before anything new is signed: a new send never takes their
  // nonce (the node counts nothing above a gap), and a stuck or dropped one is re-sent or bumped, journal first.
  const resumed = await settlement.resume();
  if (resumed.claimed + resumed.left > 0) logger.info("intents_resumed", resumed);
  return { settlement };
}
