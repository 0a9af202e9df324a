/**
 * Switches payment history on from the environment, for the daemon: the one entry the daemon wires history
 * through. With any of the six history variables missing it returns `undefined` (no recorder, no routes;
 * settlement runs with `noHistory`) after logging which names are missing; a partial proof group fails startup
 * either way. Otherwise it opens the history where the storage keeps it (`store`: the history file, or with
 * `[storage]` the database's shared history log, see `record/`), builds the recorder for settlement, wallet
 * login and identity tokens (`login/`), reads, and (with the whole proof group) the proof service (`proofs/`).
 *
 * A history file up to {@link HISTORY_FOREGROUND_BYTES} is folded before startup goes on; a larger one, and the
 * database's history, once `loadAfter` resolves (the daemon passes "listening"), so startup time does not grow
 * with history. History reads and writes wait for the fold (a paid request in those seconds waits; it is never
 * served on half a history). A damaged record in a small file stops startup; one found in the background
 * leaves history unavailable (503, and settles refuse with `intent_not_recorded`), logged as `history_unavailable`.
 */
import type { Address } from "viem";

import type { Environment } from "../config/parseSecrets.js";
import type { Logger } from "../log/createLogger.js";
import { createHistoryService, type HistoryService } from "./createHistoryService.js";
import { createIdentityTokens } from "./login/identityToken.js";
import { createIdentityResolver, type IdentitySource } from "./login/resolveIdentity.js";
import { createWalletLogin } from "./login/walletLogin.js";
import { parseHistoryEnvironment } from "./parseHistoryEnvironment.js";
import { isBoundParticipant } from "./participantAccess.js";
import { createProofService } from "./proofs/createProofService.js";
import { defaultHistoryPolicy, type HistoryPolicy } from "./proofs/historyPolicy.js";
import { loadProofIssuer } from "./proofs/loadProofIssuer.js";
import { createProofArtifactStore } from "./proofs/proofArtifactStore.js";
import { createHistoryRecorder, type PaymentHistoryRecorder } from "./record/createHistoryRecorder.js";
import type { HistoryLoad, OpenHistoryFile, PaymentHistory } from "./record/openPaymentHistory.js";
import type { PaymentHistoryStore } from "./record/paymentHistoryStore.js";

// The daemon's one door into history: what it wires when history is off comes through here too.
export { historySecretValues } from "./parseHistoryEnvironment.js";
export { noHistory } from "./record/historyRecorder.js";

/** Code-level history options: none of them has an environment variable, on purpose. */
export type HistoryOptions = {
  /** `wallet-token` (default). `legacy-headers` trusts `x-history-*` headers: trusted networks only. */
  identitySource?: IdentitySource | undefined;
  /** Identity-token lifetime in seconds; default 900, at most 3600. */
  tokenTtlSeconds?: number | undefined;
  /** Proof authorization; default {@link defaultHistoryPolicy}. */
  policy?: HistoryPolicy | undefined;
  /** Opens the history file (the embedded storage's); tests pass one whose writes can fail. */
  openFile?: OpenHistoryFile | undefined;
  /** The largest history file folded before startup goes on; default {@link HISTORY_FOREGROUND_BYTES}. */
  foregroundBytes?: number | undefined;
  /** Wall clock in unix milliseconds, for tests. */
  now?: (() => number) | undefined;
};

/** The largest history file folded before startup goes on (about 28,000 records, a few hundred ms here). */
export const HISTORY_FOREGROUND_BYTES = 8 * 1024 * 1024;

/** What the daemon wires when history is on. */
export type OpenedHistory = {
  /** Still folding the stored records when startup went on; resolves when done (never rejects). */
  loading: Promise<void> | undefined;
  /** Goes into settlement and the finalize loop in place of `noHistory`. */
  recorder: PaymentHistoryRecorder;
  /** Goes into the app's dependencies; its presence registers the `/history/*` routes. */
  service: HistoryService;
  close: () => Promise<void>;
};

/** Parameters of {@link openHistory}. */
export type OpenHistoryParameters = {
  env: Environment;
  /** `settlement.treasury`: recorded as provider-side evidence. */
  recipient: Address;
  logger: Logger;
  /**
   * Where the storage keeps the history (`storage.history`): the `PAYMENT_HISTORY_PATH` file, or with
   * `[storage]` on PostgreSQL the database's shared history log.
   */
  store: PaymentHistoryStore;
  /** A larger history is folded once this resolves (default: at once). */
  loadAfter?: Promise<unknown> | undefined;
  /** `history.retention_days` in seconds; unset keeps every record. */
  retentionSeconds?: number | undefined;
  options?: HistoryOptions | undefined;
};

/**
 * Opens history from `env`, or returns `undefined` when the history group is incomplete.
 *
 * @example
 * const history = await openHistory({ env: process.env, recipient: treasury, logger, store: storage.history });
 * const recorder = history?.recorder ?? noHistory;
 */
export async function openHistory({
  env,
  recipient,
  logger,
  store,
  loadAfter,
  retentionSeconds,
  options = {},
}: OpenHistoryParameters): Promise<OpenedHistory | undefined> {
  const parsed = parseHistoryEnvironment(env);
  if (!parsed.enabled) {
    if (parsed.missing.length < 6) logger.warn("history_disabled", { missing: parsed.missing });
    if (parsed.proofs) logger.warn("history_proofs_ignored", { reason: "the history variables are incomplete" });
    return undefined;
  }
  const settings = parsed.history;
  const now = options.now ?? Date.now;
  const nowSeconds = () => Math.floor(now() / 1000);
  // Everything that can refuse the configuration runs before the file is opened, so a refusal leaks no handle.
  const tokens = createIdentityTokens({ secret: settings.identitySecret, issuer: settings.loginDomain, ttlSeconds: options.tokenTtlSeconds, now });
  const issuer = parsed.proofs === undefined ? undefined : await loadProofIssuer(parsed.proofs, nowSeconds());
  let started = now();
  // A history folded in the background starts once `loadAfter` resolves: its fold is timed from then.
  const after = Promise.resolve(loadAfter).then(() => {
    started = now();
  });
  const { history, foreground } = await store.open(settings.path, {
    after,
    foregroundBytes: options.foregroundBytes ?? HISTORY_FOREGROUND_BYTES,
    openFile: options.openFile,
  });
  const report = (load: HistoryLoad) => {
    if (load.tornLine) logger.warn("history_torn_line_repaired", { line: load.tornLine.lineNumber, bytes: load.tornLine.bytes });
    logger.info("history_loaded", { records: load.records, ms: now() - started });
  };
  if (foreground) {
    try {
      report(await history.loaded);
    } catch (error) {
      await history.close();
      throw error;
    }
  } else logger.info("history_loading", { message: "the stored history is folded once the daemon is up; history reads and writes wait for it" });
  const loading = foreground ? undefined : background(history, report, logger);
  const retention = retentionSeconds === undefined ? undefined : keepRetention(history, retentionSeconds, nowSeconds, logger);

  const identitySource = options.identitySource ?? "wallet-token";
  const proofs =
    issuer === undefined
      ? undefined
      : createProofService({
          history,
          issuer,
          artifacts: createProofArtifactStore(issuer.artifactPath),
          policy: options.policy ?? defaultHistoryPolicy,
          canSee: isBoundParticipant,
          now,
        });
  const service = createHistoryService({
    history,
    grants: settings.bindings,
    login: createWalletLogin({ domain: settings.loginDomain, bindings: settings.bindings, wallets: settings.wallets, tokens, now }),
    resolveIdentity: createIdentityResolver({ source: identitySource, tokens, bindings: settings.bindings }),
    projection: { providerSettlementEvidence: settings.providerSettlementEvidence },
    proofs,
  });
  if (identitySource === "legacy-headers")
    logger.warn("history_legacy_header_identity", { message: "x-history-* headers are trusted as identity; use only on a trusted network" });
  logger.info("history_enabled", {
    ...(store.kind === "shared" ? { storage: "shared" } : {}),
    proofs: issuer !== undefined,
    wallet_login: (["payer", "provider"] as const).filter((subject) => settings.wallets[subject] !== undefined),
    provider_settlement_evidence: settings.providerSettlementEvidence,
  });
  return {
    loading,
    recorder: createHistoryRecorder({ history, bindings: settings.bindings, recipient, now: nowSeconds }),
    service,
    close: async () => {
      retention?.stop();
      await history.close();
    },
  };
}

// A damaged record found after startup leaves history unavailable: said once, loudly, by name only.
async function background(history: PaymentHistory, report: (load: HistoryLoad) => void, logger: Logger): Promise<void> {
  try {
    report(await history.loaded);
  } catch (error) {
    logger.error("history_unavailable", {
      error: error instanceof Error ? error.name : "unknown",
      message: error instanceof Error ? error.message : "the history could not be read",
    });
  }
}

/** How often a retention is applied after the first time, right after the history is loaded. */
export const HISTORY_PRUNE_INTERVAL_MS = 3_600_000;

// The first pass waits for the load like any write; a failed pass is logged and the next one tries again.
function keepRetention(history: PaymentHistory, retentionSeconds: number, nowSeconds: () => number, logger: Logger): { stop: () => void } {
  const prune = async () => {
    try {
      const payments = await history.prune(nowSeconds(), retentionSeconds);
      if (payments > 0) logger.info("history_pruned", { payments, retention_days: retentionSeconds / 86_400 });
    } catch (error) {
      logger.warn("history_prune_failed", { error: error instanceof Error ? error.name : "unknown" });
    }
  };
  void prune();
  const timer = setInterval(() => void prune(), HISTORY_PRUNE_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
