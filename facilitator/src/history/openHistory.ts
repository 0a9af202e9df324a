/**
 * Switches payment history on from the environment, for the daemon: the one entry the daemon wires history
 * through. With any of the six history variables missing it returns `undefined` (no recorder, no routes;
 * settlement runs with `noHistory`) after logging which names are missing; a partial proof group fails startup
 * either way. Otherwise it opens the history file, or with `[storage]` the database's shared history log
 * (`record/`), builds the recorder for settlement, wallet
 * login and identity tokens (`login/`), reads, and (with the whole proof group) the proof service (`proofs/`).
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
import { type OpenHistoryFile, openPaymentHistory } from "./record/openPaymentHistory.js";
import { openSharedPaymentHistory } from "./record/openSharedPaymentHistory.js";
import type { HistoryLogPort } from "../storage/storagePorts.js";

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
  /** Opens the history file; tests pass one whose writes can fail. */
  openFile?: OpenHistoryFile | undefined;
  /** Wall clock in unix milliseconds, for tests. */
  now?: (() => number) | undefined;
};

/** What the daemon wires when history is on. */
export type OpenedHistory = {
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
  /** The storage's shared history log (`[storage]` on PostgreSQL): records go there, not to `PAYMENT_HISTORY_PATH`. */
  historyLog?: HistoryLogPort | undefined;
  options?: HistoryOptions | undefined;
};

/**
 * Opens history from `env`, or returns `undefined` when the history group is incomplete.
 *
 * @example
 * const history = await openHistory({ env: process.env, recipient: treasury, logger });
 * const recorder = history?.recorder ?? noHistory;
 */
export async function openHistory({ env, recipient, logger, historyLog, options = {} }: OpenHistoryParameters): Promise<OpenedHistory | undefined> {
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
  const history = historyLog === undefined ? await openPaymentHistory(settings.path, options.openFile) : await openSharedPaymentHistory(historyLog);
  if (history.tornLine) logger.warn("history_torn_line_repaired", { line: history.tornLine.lineNumber, bytes: history.tornLine.bytes });

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
    records: history.book.entries().length,
    ...(historyLog === undefined ? {} : { storage: "shared" }),
    proofs: issuer !== undefined,
    wallet_login: (["payer", "provider"] as const).filter((subject) => settings.wallets[subject] !== undefined),
    provider_settlement_evidence: settings.providerSettlementEvidence,
  });
  return {
    recorder: createHistoryRecorder({ history, bindings: settings.bindings, recipient, now: nowSeconds }),
    service,
    close: history.close,
  };
}
