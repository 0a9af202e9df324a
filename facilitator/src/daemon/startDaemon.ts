/**
 * The facilitator daemon's composition root. `startLocked` reads top to bottom as the start itself: each
 * `wire*` module builds one subsystem from the parts built above it and hands back what it built, so the
 * arguments of each call are the call graph. The order is the order of side effects: the configuration and
 * the journal lock, the loggers, the chain clients, the storage, the start-up checks against the chain, the
 * prover, history, the journal restored into the book, offers and the burn-address pool, the settlement
 * (resuming relays a stop left open), the operator's views, the finalize loop, then the HTTP API; `started`
 * (the readiness marker) once it listens. `stop()` (shutdown.ts) stops accepting, waits up to
 * `daemon.shutdown_grace_ms` for requests and settles in flight, then closes in reverse.
 */
import { describeFinality, finalityRule } from "../chain/chainFinality.js";
import { choosePoseidon } from "../challenges/choosePoseidon.js";
import { capabilitiesOf } from "../config/capabilities.js";
import { loadConfig, type LoadConfigReturnType } from "../config/loadConfig.js";
import type { Environment } from "../config/parseSecrets.js";
import { redactUrl } from "../config/redactUrl.js";
import type { HistoryOptions } from "../history/openHistory.js";
import { lockJournal, type JournalLock } from "../journal/journalLock.js";
import type { LogLevel } from "../log/createLogger.js";
import { signerRecoveryImplementation } from "../settlement/recoverSigner.js";
import type { InProcessSettlement } from "./createInProcessSettlement.js";
import { createStop } from "./shutdown.js";
import { runStartupChecks } from "./startupChecks.js";
import { wireChain } from "./wireChain.js";
import { wireChallenges } from "./wireChallenges.js";
import { wireFinalize } from "./wireFinalize.js";
import { wireHistory } from "./wireHistory.js";
import { wireHttp } from "./wireHttp.js";
import { wireJournal } from "./wireJournal.js";
import { wireKeySenders } from "./wireKeySenders.js";
import { wireLogging } from "./wireLogging.js";
import { wireOperator } from "./wireOperator.js";
import { wireProver } from "./wireProver.js";
import { wireSettlement } from "./wireSettlement.js";
import { wireStorage } from "./wireStorage.js";

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
  const { config, secrets } = loaded;
  const { env } = options;
  const { logger, marker } = wireLogging({ config, secrets, env, write: options.write, logLevel: options.logLevel, pretty: options.pretty });
  if (lock?.tookOverFrom) logger.warn("journal_lock_taken_over", { lock: lock.path, pid: lock.tookOverFrom.pid, host: lock.tookOverFrom.hostname });
  // SVC_POSEIDON and SVC_POSEIDON_PATH: a bad value, a required addon that is missing or a forced path this
  // processor lacks stops startup here, before any connection is opened or anything derived.
  const poseidon = choosePoseidon(env);
  if (poseidon.fallback) logger.warn("poseidon_fallback", { implementation: poseidon.implementation.name });
  if (signerRecoveryImplementation !== "libsecp256k1") logger.warn("signer_recovery_fallback", { implementation: signerRecoveryImplementation });

  const chain = wireChain({ config, secrets, logger });
  const { storage, owner } = await wireStorage({ config, env });
  // The monitors report only once started (below), when the metrics they feed exist.
  const senders = wireKeySenders({ config, chain, storage, logger, onMonitorEvent: (event) => operator.metrics.txReplaced(event) });
  const { token } = await runStartupChecks({ ...loaded, chain, storage, logger });
  const capabilities = capabilitiesOf(config);
  // The prover, history and the journal open before any offer exists: a configuration they refuse stops here.
  const { prover } = await wireProver({ config, capabilities, env });
  const history = await wireHistory({ config, env, chain, storage, logger, options: options.history });
  const journal = await wireJournal({ storage, history, logger });
  const challenges = await wireChallenges({ config, secrets, storage, owner, capabilities, chain, poseidon, journal, token, logger });
  await journal.compact();
  // Resumes the relays a stop left open before anything new is signed or served.
  const { settlement } = await wireSettlement({ config, capabilities, chain, senders, challenges, journal, storage, owner, history, logger });
  const operator = wireOperator({ config, poseidon, chain, senders, challenges, journal, storage });
  const finalize = wireFinalize({ config, capabilities, prover, chain, senders, challenges, journal, storage, owner, history, operator, logger });
  // `started` means an offer can be issued at once: wait (bounded) for the first pre-derived burn address.
  await challenges.pool?.whenStocked();
  const http = await wireHttp({ config, secrets, capabilities, chain, challenges, settlement, operator, storage, history, logger });

  marker.info("started", {
    listen: http.listening.address,
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
  history.markListening();
  for (const monitor of senders.monitors) monitor.start();
  void settlement
    .reconcileIntents()
    .then((accepted) => accepted > 0 && logger.info("intents_reconciled", { accepted }))
    .catch((error: unknown) => logger.warn("intent_reconcile_failed", { error: error instanceof Error ? error.name : "unknown" }));

  const stop = createStop({ config, http, settlement, finalize, senders, prover, challenges, history, storage, chain, lock, logger });
  return {
    listen: http.listening.address,
    url: `http://${http.listening.address}`,
    finalizeOnce: () => finalize.loop.runOnce(),
    settlement: http.inProcess.settlement,
    stop,
  };
}
