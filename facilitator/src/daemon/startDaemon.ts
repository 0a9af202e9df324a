/**
 * The facilitator daemon: loads and checks the configuration, restores the journal, starts the burn-address
 * pool, the settlement core and the HTTP API (and the same settlement for callers in this process,
 * `RunningDaemon.settlement`), and logs `started` (the readiness marker). `stop()` stops
 * accepting, waits up to `daemon.shutdown_grace_ms` for requests and settles in flight, then closes.
 */
import { detectProtocolVersion, SCHEME, toNetwork, X402_VERSION, type ProtocolVersion, type SupportedResponse } from "@svc/scheme";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { getAddress, type Hex, type PublicClient } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { BurnAddressPool, DEFAULT_BURN_ADDRESS_WORKER_IDLE_MS } from "../challenges/burnAddressPool.js";
import type { BurnTarget } from "../challenges/burnSecretInputs.js";
import { choosePoseidon } from "../challenges/choosePoseidon.js";
import type { ChallengeRecord } from "../challenges/challengeRecord.js";
import { ChallengeStore } from "../challenges/challengeStore.js";
import { createChallengeIssuer } from "../challenges/createChallengeIssuer.js";
import { createChainFinality, describeFinality, finalityRule } from "../chain/chainFinality.js";
import { createReorgWatch } from "../finalize/watchReorgs.js";
import { createChainClients } from "../chain/createChainClients.js";
import type { RpcEndpointHealth } from "../chain/rpcEndpointHealth.js";
import { createKeySender, type SerialSender } from "../chain/createKeySender.js";
import type { MonitorEvent } from "../chain/createTransactionMonitor.js";
import { gasPolicyOf } from "../chain/gasPolicyOf.js";
import { BurnAddressWorker } from "../challenges/burnAddressWorker.js";
import { createOnDemandSearcher } from "../challenges/onDemandSearcher.js";
import { deriveBurnSeed } from "../challenges/burnSeed.js";
import { reopenBurnSecretOffThread } from "../challenges/reopenBurnSecret.js";
import { assertRpcChainId } from "../config/assertRpcChainId.js";
import { ProtocolVersionMismatchError } from "../config/errors.js";
import { readTokenFacts } from "../chain/readTokenFacts.js";
import { capabilitiesOf } from "../config/capabilities.js";
import type { FacilitatorConfig } from "../config/facilitatorConfigSchema.js";
import { ChainIdentityMismatchError, isSameChain, readChainIdentity } from "../chain/chainIdentity.js";
import { lockJournal, type JournalLock } from "../journal/journalLock.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";
import { checkStartupRules } from "../config/checkStartupRules.js";
import { loadConfig, type LoadConfigReturnType } from "../config/loadConfig.js";
import type { Environment } from "../config/parseSecrets.js";
import { redactUrl } from "../config/redactUrl.js";
import { buildWithdrawalWitness } from "../operator/withdrawalWitness.js";
import { ProfileDisabledError } from "../challenges/errors.js";
import { historySecretValues, type HistoryOptions, noHistory, openHistory } from "../history/openHistory.js";
import type { AppDependencies } from "../http/appDependencies.js";
import type { AdminSettlement, SettlementState } from "../operator/adminSettlement.js";
import { createApp } from "../http/createApp.js";
import { listenApp } from "../http/listenApp.js";
import { createLogger, type LogLevel } from "../log/createLogger.js";
import { createFacilitatorMetrics } from "../metrics/createFacilitatorMetrics.js";
import { instrumentFinalize, instrumentSettlement, trackRelayerQueue } from "../metrics/instrumentSettlement.js";
import { readAdminStatus } from "../operator/readAdminStatus.js";
import { settlementBacklog } from "../operator/settlementBacklog.js";
import { createReadinessProbe } from "../readiness/createReadinessProbe.js";
import { checkIndexerReadiness, checkRpcReadiness, checkStockReadiness, checkStorageReadiness } from "../readiness/readinessChecks.js";
import { createFinalizeLoop } from "../finalize/createFinalizeLoop.js";
import { createFinalizePrefetch } from "../finalize/createFinalizePrefetch.js";
import { createTransferScanner } from "../finalize/createTransferScanner.js";
import { finalizeEntry } from "../finalize/finalizeEntry.js";
import { deriveScheduleKey } from "../finalize/finalizeSchedule.js";
import { FINALIZE_WAITING_REASON } from "../finalize/finalizeReasons.js";
import { createIndexerClient } from "../finalize/indexerClient.js";
import { selectProver } from "../finalize/provers/selectProver.js";
import { createWitnessRejections } from "../finalize/witnessRejections.js";
import { sweepFees, sweepIntervalSeconds } from "../finalize/sweepFees.js";
import { fromJournaledChallenge } from "../journal/journaledChallenge.js";
import type { JournaledChallenge, JournalRecord } from "../journal/journalRecord.js";
import { createSettlementService } from "../settlement/createSettlementService.js";
import { SettlementBook, type SettlementEntry } from "../settlement/settlementBook.js";
import { shareSettlement } from "../settlement/shareSettlement.js";
import { createJournalFollower } from "../journal/createJournalFollower.js";
import { openEmbeddedStorage } from "../storage/openEmbeddedStorage.js";
import { openStorageDatabase, storagePassword } from "../storage/storageConnection.js";
import { createInProcessSettlement, type InProcessSettlement } from "./createInProcessSettlement.js";

/** How to start the daemon. */
export type StartDaemonOptions = {
  configPath: string;
  env: Environment;
  /** Where JSON log lines go (default stdout). */
  write?: (line: string) => void;
  /** Lowest level logged; overrides `daemon.log_level` (the `--log-level` option). */
  logLevel?: LogLevel | undefined;
  /** Human-readable lines instead of JSON (`--pretty`, or a terminal on stdout). */
  pretty?: boolean | undefined;
  /** Code-level payment-history options (identity source, token lifetime, proof policy); the environment switches history on. */
  history?: HistoryOptions;
};

/** A running daemon. */
export type RunningDaemon = {
  /** `host:port` bound. */
  listen: string;
  /** `http://host:port`. */
  url: string;
  /**
   * Runs one finalize pass now (or joins the one running) and resolves when it ends: how a caller proves what
   * a pass does, or that it does nothing, without waiting on the clock.
   */
  finalizeOnce: () => Promise<void>;
  /**
   * The same `/verify` and `/settle` for code in this process, without HTTP: hand it to
   * `createSvcZerc20SchemeFacilitator` to run svc-zerc20 inside the official `x402Facilitator`.
   */
  settlement: InProcessSettlement;
  stop: () => Promise<void>;
};

const unixNow = () => Math.floor(Date.now() / 1000);

// With one process a lease only outlives a pass that threw; the PostgreSQL default, for one behaviour.
const EMBEDDED_FINALIZE_LEASE_MS = 60_000;

// A settle claim outlives the permit receipt timeout by this much before another instance may take it over.
const SETTLE_CLAIM_MARGIN_MS = 10_000;

// Each readiness check waits this long: a probe answered after it would already be too slow to settle on.
const READINESS_TIMEOUT_MS = 2_000;

/** Starts the daemon; throws named errors (never quoting secrets) when the configuration or startup rules fail. */
export async function startDaemon(options: StartDaemonOptions): Promise<RunningDaemon> {
  const loaded = await loadConfig(options.configPath, options.env);
  const { journal } = loaded.config.settlement;
  // Before anything reads or writes the journal's files: a second daemon on them refuses here, touching nothing.
  const lock = loaded.config.storage === undefined && journal !== null ? await lockJournal(journal) : undefined;
  try {
    return await startLocked(options, loaded, lock);
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

async function startLocked(options: StartDaemonOptions, loaded: LoadConfigReturnType, lock: JournalLock | undefined): Promise<RunningDaemon> {
  const { config, secrets, warnings } = loaded;
  const loggerOptions = {
    write: options.write,
    secrets: [
      secrets.treasuryPk,
      secrets.relayerPk,
      ...(secrets.minterPk ? [secrets.minterPk] : []),
      ...(secrets.adminToken ? [secrets.adminToken] : []),
      ...[storagePassword(options.env)].filter((password) => password !== undefined),
      ...historySecretValues(options.env),
    ],
    urls: [
      ...config.network.rpc_urls,
      config.network.indexer_url,
      config.network.decider_url,
      ...(config.storage ? [config.storage.url] : []),
      ...(config.prover.kind === "http" ? [config.prover.url] : []),
    ],
    format: options.pretty ? ("pretty" as const) : ("json" as const),
  };
  const logger = createLogger({ ...loggerOptions, level: options.logLevel ?? config.daemon.log_level });
  // `started` is the readiness marker supervisors wait for: it is written whatever the configured level.
  const marker = createLogger(loggerOptions);
  if (lock?.tookOverFrom) logger.warn("journal_lock_taken_over", { lock: lock.path, pid: lock.tookOverFrom.pid, host: lock.tookOverFrom.hostname });
  // SVC_POSEIDON and SVC_POSEIDON_PATH: a bad value, a required addon that is missing or a forced path this
  // processor lacks stops startup here, before any connection is opened or anything derived.
  const poseidon = choosePoseidon(options.env);
  if (poseidon.fallback) logger.warn("poseidon_fallback", { implementation: poseidon.implementation.name });
  const chainClients = createChainClients({
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
  const { chain, client, relayerAccount, minterAccount, treasuryAccount, rpcHealth, endpointClients } = chainClients;
  // With [storage] the state several instances share lives in the database; without it, in this process.
  const archiveDays = config.settlement.archive_retention_days;
  const compaction = {
    retentionSeconds: config.settlement.expired_challenge_retention_seconds,
    lateBurnRetentionSeconds: config.settlement.late_burn_retention_days * 86_400,
    archiveRetentionSeconds: archiveDays === undefined ? undefined : archiveDays * 86_400,
    now: unixNow,
  };
  // The daemon's one way to state: the embedded adapter (the journal file, memory) or PostgreSQL.
  const storage =
    config.storage === undefined
      ? await openEmbeddedStorage({
          journalPath: config.settlement.journal ?? null,
          compaction,
          challenges: { maxOpenChallenges: config.daemon.max_open_challenges, retentionSeconds: config.settlement.expired_challenge_retention_seconds },
        })
      : await openStorageDatabase(config.storage, options.env, compaction);
  // Claims and leases name this process: a restarted instance is a new owner and waits out its old leases.
  const owner = `${hostname()}/${process.pid}/${randomUUID()}`;
  // One sender and one transaction monitor per key, its nonces from the storage whichever adapter it is; the
  // monitors' loops run from `started` to stop.
  const senderOf = (account: PrivateKeyAccount, role: string): SerialSender => {
    const monitor = { role, policy: gasPolicyOf(config.gas), logger, onEvent: (event: MonitorEvent) => metrics.txReplaced(event) };
    return createKeySender({ client, chain, account, nonces: storage.relayNonces, monitor });
  };
  const treasurySender = senderOf(treasuryAccount, "treasury");
  const finality = createChainFinality(client, { confirmations: config.network.confirmations, finality: finalityRule(config.network) });
  const rpcChainId = await readEndpointChainIds(config, endpointClients, rpcHealth);
  await checkChainIdentity(client, storage);
  const deployed = await detectProtocolVersion(client, { token: getAddress(config.network.token), verifier: getAddress(config.network.verifier) });
  if (deployed.version !== config.network.protocol) {
    throw new ProtocolVersionMismatchError({ configured: config.network.protocol, deployed: deployed.version });
  }
  const token = await readTokenFacts(client, getAddress(config.network.token));
  if (config.settlement.permit_burner !== undefined && !token.permit) {
    logger.warn("permit_unsupported", { message: "the token has no EIP-2612 permit: offers carry no helper, only the self-transfer path is offered" });
  }
  const startupWarnings = [...warnings, ...checkStartupRules({ config, secrets, rpcChainId })];
  for (const warning of dedupe(startupWarnings)) logger.warn(warning.code, { message: warning.message });

  // `[prover]`: the fixture adapter only under profile `local` on 31337 (otherwise none: `no_prover`), a command,
  // HTTP or snarkjs adapter under any profile. The loop changes chain state only where the profile lets it.
  // Opened before any state: circuit files that cannot serve stop the start here (ProverCircuitError).
  const capabilities = capabilitiesOf(config);
  const prover = await selectProver({
    prover: config.prover,
    capabilities,
    profile: config.profile,
    chainId: config.network.chain_id,
    protocol: config.network.protocol,
    deciderUrl: config.network.decider_url,
    env: options.env,
  });

  // History is opened before the journal so a bad history or partial proof configuration stops startup early.
  // A large history is folded once the daemon listens, so startup time does not grow with it.
  let markUp: () => void = () => undefined;
  const up = new Promise<void>((resolve) => {
    markUp = resolve;
  });
  const history = await openHistory({
    env: options.env,
    recipient: getAddress(config.settlement.treasury),
    logger,
    store: storage.history,
    loadAfter: up,
    retentionSeconds: config.history.retention_days === undefined ? undefined : config.history.retention_days * 86_400,
    options: options.history,
  });
  if (storage.tornJournalLine) logger.warn("journal_torn_line_repaired", { line: storage.tornJournalLine.lineNumber, bytes: storage.tornJournalLine.bytes });
  const book = new SettlementBook();
  // Challenges journaled before this start, restored into the store once the book knows which were settled.
  const restoredChallenges: JournaledChallenge[] = [];
  let restoring = true;
  const follower = createJournalFollower(storage.journal, (record) => {
    book.apply(record);
    if (restoring && record.type === "challenge") restoredChallenges.push(record.challenge);
  });
  const restoredRecords = await follower.catchUp();
  restoring = false;
  const pending = book.list("accepted").length;
  logger.info("journal_restored", {
    records: restoredRecords,
    pending,
    open_intents: book.openIntents().length,
    storage: storage.kind,
  });
  const reconcileHistory = async () => {
    const caughtUp = (await history?.recorder.reconcile(book.list())) ?? 0;
    if (caughtUp > 0) logger.info("history_reconciled", { records: caughtUp });
  };
  // A history still loading is reconciled once loaded.
  if (history?.loading)
    void history.loading
      .then(reconcileHistory)
      .catch((error: unknown) => logger.warn("history_reconcile_failed", { error: error instanceof Error ? error.name : "unknown" }));
  else await reconcileHistory();

  const network = toNetwork(config.network.chain_id);
  const treasury = getAddress(config.settlement.treasury);
  const seed = deriveBurnSeed(secrets.treasuryPk);
  const burnTarget: BurnTarget = { protocol: config.network.protocol, chainId: config.network.chain_id, treasury };
  const stock = capabilities.issuesOffers ? await storage.openBurnAddressStock({ ...burnTarget, seed }, owner) : undefined;
  if (stock) logger.info("burn_address_stock_restored", { entries: stock.restored.length, discarded: stock.discarded ?? null });
  const store = new ChallengeStore({
    maxOpenChallenges: config.daemon.max_open_challenges,
    retentionSeconds: config.settlement.expired_challenge_retention_seconds,
  });
  // Under a non-local profile no offer is ever issued, so no CPU goes into deriving burn addresses.
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
  // Offers issued before a restart still settle: their match data comes back from the journal.
  for (const challenge of restoredChallenges) store.restore(fromJournaledChallenge(challenge), book.entry(challenge.challengeNonce) !== undefined);
  const archived = await storage.journal.compact();
  if (archived > 0) logger.info("journal_compacted", { archived });
  const recordChallenge = (record: ChallengeRecord) => storage.challenges.put(record);
  const issuer = pool
    ? createChallengeIssuer({ config, seed, pool, store, record: recordChallenge, tokenHasPermit: token.permit, tokenDecimals: token.decimals })
    : undefined;
  const deployment = {
    chainId: config.network.chain_id,
    token: getAddress(config.network.token),
    verifier: getAddress(config.network.verifier),
    treasury,
  };
  // The one append-and-apply: every journal record is made durable, then folded into the book in the journal's
  // one order (with [storage], together with what other instances appended); an accept also queues the mint.
  const journalAndApply = async (record: JournalRecord) => {
    await follower.appendAndApply(record);
    if (record.type === "accepted") await storage.finalizeQueue.enqueue(record.challenge.challengeNonce);
  };
  const trackedRelayer = trackRelayerQueue(senderOf(relayerAccount, "relayer"));
  const relayerSender = trackedRelayer.queue;
  // Mints and fee distributions go out from their own key when SVC_MINTER_PK is set, so the burn relayer never mints.
  const minterSender = minterAccount ? senderOf(minterAccount, "minter") : relayerSender;
  const monitors = [...new Set([relayerSender.monitor, minterSender.monitor, treasurySender.monitor])];
  const core = createSettlementService({
    capabilities,
    network,
    deployment,
    client,
    finality,
    relayer: relayerSender,
    challenges: store,
    book,
    record: journalAndApply,
    history: history?.recorder ?? noHistory,
    logger,
    now: unixNow,
    permitReceiptTimeoutMs: config.settlement.permit_receipt_timeout_ms,
  });
  const settlement = shareSettlement({
    settlement: core,
    catchUp: follower.catchUp,
    issued: storage.challenges,
    store,
    book,
    claims: storage.settleClaims,
    owner,
    // A settle waits at most the permit receipt timeout on the chain; the margin covers its checks.
    claimLeaseMs: config.settlement.permit_receipt_timeout_ms + SETTLE_CLAIM_MARGIN_MS,
    network,
  });
  // Relays signed before a restart are watched before anything new is signed: a new send never takes their
  // nonce (the node counts nothing above a gap), and a stuck or dropped one is re-sent or bumped, journal first.
  const resumed = await settlement.resume();
  if (resumed.claimed + resumed.left > 0) logger.info("intents_resumed", resumed);

  const poseidonStatus = { implementation: poseidon.implementation.name, path: poseidon.implementation.path ?? null };
  const metrics = createFacilitatorMetrics({
    poolStats: () => pool?.stats(),
    poseidon: poseidonStatus,
    backlog: () => settlementBacklog(book, unixNow()),
    openChallenges: () => store.counts().open,
    relayerQueueDepth: trackedRelayer.depth,
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

  const supported: SupportedResponse = {
    kinds: capabilities.acceptsPayments ? [{ x402Version: X402_VERSION, scheme: SCHEME, network }] : [],
    extensions: [],
    signers: {},
  };
  // Routes and in-process callers share one instrumented settlement, so metrics count both alike.
  const instrumented = instrumentSettlement(metrics, settlement);
  const inProcess = createInProcessSettlement({ network, acceptsPayments: capabilities.acceptsPayments, settlement: instrumented, logger });
  const deps: AppDependencies = {
    config,
    adminToken: secrets.adminToken,
    logger,
    supported: () => supported,
    health: () => ({ status: "ok", profile: config.profile ?? null, chain_id: config.network.chain_id }),
    rateLimits: storage.rateLimits,
    readiness: readiness.current,
    issueChallenge: async (listPrice) => {
      if (!issuer) throw new ProfileDisabledError(config.profile);
      const { offer } = await issuer.issue(listPrice);
      logger.info("challenge_issued", { challenge_nonce: offer.challengeNonce, amount: offer.amount, expires_at: offer.expiresAt });
      return offer;
    },
    ...instrumented,
    metrics,
    admin: {
      challenges: () => ({ ...store.counts(), maxOpen: config.daemon.max_open_challenges }),
      settlements: (state) => adminSettlements(book, state),
      status: () =>
        readAdminStatus({
          profile: config.profile,
          chainId: config.network.chain_id,
          backlog: () => settlementBacklog(book, unixNow()),
          openChallenges: () => store.counts().open,
          rpcEndpoints: rpcHealth.snapshot,
          poolStats: () => pool?.stats(),
          poseidon: poseidonStatus,
          relayer: { address: relayerAccount.address, queueDepth: trackedRelayer.depth },
          treasury: { address: treasuryAccount.address },
          minter: minterAccount ? { address: minterAccount.address } : undefined,
          releasedAlone: metrics.releasedAloneTotal,
          balanceOf: (address) => client.getBalance({ address }),
        }),
      withdrawalWitness: async (challengeNonce) => {
        const entry = book.entry(challengeNonce);
        return entry === undefined ? undefined : buildWithdrawalWitness(entry, await burnSecret(entry.challenge));
      },
    },
    ...(history === undefined ? {} : { history: history.service }),
  };

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
    record: journalAndApply,
    relayer: relayerSender,
    logger,
    now: unixNow,
    onReorg: metrics.reorg,
  });
  const secretSearcher = createOnDemandSearcher({
    start: () => new BurnAddressWorker(poseidon.implementation),
    idleMs: DEFAULT_BURN_ADDRESS_WORKER_IDLE_MS,
  });
  // The live challenge still holds the secret; after a restart it is re-derived from the nonce, off-thread.
  const burnSecret = async ({ challengeNonce, protocol }: { challengeNonce: Hex; protocol: ProtocolVersion }) => {
    const live = store.get(challengeNonce);
    if (live?.record.burn) return live.record.burn;
    return reopenBurnSecretOffThread(secretSearcher, seed, { ...burnTarget, protocol }, challengeNonce);
  };
  const witnessRejections = createWitnessRejections();
  const finalizeLoop = createFinalizeLoop({
    active: capabilities.finalizes && prover !== undefined,
    intervalMs: config.daemon.finalize_interval_ms,
    deployment,
    book,
    journal: journalAndApply,
    history: history?.recorder ?? noHistory,
    logger,
    now: unixNow,
    onPass: metrics.finalizePass,
    schedule: { policy: config.finalize, key: deriveScheduleKey(seed) },
    prefetch: (entries) => reads.prefetch(entries),
    watch: reorgWatch.watch,
    queue: { port: storage.finalizeQueue, owner, leaseMs: config.storage?.finalize_lease_ms ?? EMBEDDED_FINALIZE_LEASE_MS, catchUp: follower.catchUp },
    finalize: instrumentFinalize(metrics, (entry) =>
      prover
        ? finalizeEntry(
            {
              client,
              relayer: minterSender,
              prover,
              indexer: reads.indexer,
              transfers: reads.transfers,
              rootWait: reads.rootWait,
              provedIndex: reads.provedIndex,
              witnessRejections,
              deployment,
              burnSecret,
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
          treasury,
          treasurySender,
          minter: minterSender,
          intervalSeconds: sweepIntervalSeconds(config),
          lastSweepAt: () => book.lastFeeSweepAt,
          journal: journalAndApply,
          logger,
          now: unixNow,
        },
        owing,
      ),
  });

  // `started` means an offer can be issued at once: wait (bounded) for the first pre-derived burn address.
  await pool?.whenStocked();
  const listening = await listenApp(createApp(deps), { host: config.listen.host, port: config.listen.port });
  marker.info("started", {
    listen: listening.address,
    chain_id: config.network.chain_id,
    protocol: config.network.protocol,
    profile: config.profile ?? null,
    rpc_urls: config.network.rpc_urls.map(redactUrl),
    confirmations: config.network.confirmations,
    finality: describeFinality(finalityRule(config.network)),
    token_decimals: token.decimals,
    permit_path: config.settlement.permit_burner !== undefined && token.permit,
    ...storage.readiness.detail,
    state: storage.location,
    poseidon: poseidon.implementation.name,
    poseidon_path: poseidon.implementation.path ?? null,
    prover: prover === undefined ? "none" : config.prover.kind,
  });
  markUp();
  for (const monitor of monitors) monitor.start();
  void settlement
    .reconcileIntents()
    .then((accepted) => accepted > 0 && logger.info("intents_reconciled", { accepted }))
    .catch((error: unknown) => logger.warn("intent_reconcile_failed", { error: error instanceof Error ? error.name : "unknown" }));

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      logger.info("stopping", { grace_ms: config.daemon.shutdown_grace_ms });
      const grace = new Promise((resolve) => setTimeout(resolve, config.daemon.shutdown_grace_ms).unref());
      inProcess.close();
      await listening.close(config.daemon.shutdown_grace_ms);
      await Promise.race([Promise.allSettled([...settlement.inflight(), ...inProcess.inflight(), finalizeLoop.stop()]), grace]);
      await Promise.all(monitors.map((monitor) => monitor.stop()));
      // A proof still running after the grace is abandoned: its program is killed, its request aborted.
      await prover?.close();
      await pool?.close();
      await secretSearcher.close();
      await history?.close();
      await storage.close();
      await chainClients.close();
      await lock?.release();
      logger.info("stopped");
    })();
    return stopping;
  };
  return {
    listen: listening.address,
    url: `http://${listening.address}`,
    finalizeOnce: () => finalizeLoop.runOnce(),
    settlement: inProcess.settlement,
    stop,
  };
}

/**
 * Asks every endpoint for its chain id at start: one that answers with another chain stops the start (an error
 * naming its key, never its URL), one that does not answer is left to the failover transport's backoff, and
 * none answering stops the start with the last endpoint's error.
 */
async function readEndpointChainIds(config: FacilitatorConfig, clients: readonly PublicClient[], health: RpcEndpointHealth): Promise<number> {
  const readings = await Promise.allSettled(clients.map((endpoint) => endpoint.getChainId()));
  const last = readings.at(-1);
  if (last?.status === "rejected" && readings.every((reading) => reading.status === "rejected")) throw last.reason;
  readings.forEach((reading, index) => {
    if (reading.status === "fulfilled") {
      assertRpcChainId(config, reading.value, index);
      health.chainChecked(index);
      health.succeeded(index);
    } else health.failed(index, reading.reason instanceof Error ? reading.reason.name : "unknown");
  });
  return config.network.chain_id;
}

function adminSettlements(book: SettlementBook, state: SettlementState | undefined): AdminSettlement[] {
  const entries: AdminSettlement[] =
    state === "late_burn"
      ? []
      : book.list(state).map((entry: SettlementEntry) => ({
          challengeNonce: entry.challenge.challengeNonce,
          state: entry.state,
          path: entry.path,
          amount: entry.challenge.amount,
          burnTxHash: entry.burnTxHash,
          acceptedAt: entry.at,
          ...(entry.finalizedAt === undefined ? {} : { finalizedAt: entry.finalizedAt }),
          ...(entry.mintTxHash === undefined ? {} : { mintTxHash: entry.mintTxHash }),
          ...(entry.reason === undefined ? {} : { reason: entry.reason }),
        }));
  const late: AdminSettlement[] =
    state === undefined || state === "late_burn"
      ? book.lateBurns.map((late) => ({
          challengeNonce: late.challenge.challengeNonce,
          state: "late_burn",
          path: late.path,
          amount: late.value,
          burnTxHash: late.burnTxHash,
          reason: `included at ${late.blockTimestamp}, offer expired at ${late.challenge.expiresAt}`,
        }))
      : [];
  return [...entries, ...late];
}

function dedupe<T extends { code: string; message: string }>(warnings: readonly T[]): T[] {
  const seen = new Set<string>();
  return warnings.filter((warning) => {
    const key = `${warning.code}:${warning.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Refuses a start on state written on another chain (chain/chainIdentity.ts); the first start on a state
 * records the chain it runs on. Without a journal (`journal = "none"`) there is no state to mismatch: the claim
 * answers with the chain itself.
 */
async function checkChainIdentity(client: PublicClient, storage: FacilitatorStorage): Promise<void> {
  const actual = await readChainIdentity(client);
  const recorded = await storage.chainIdentity.claim(actual);
  if (!isSameChain(recorded, actual)) throw new ChainIdentityMismatchError({ state: storage.location, recorded, actual });
}
