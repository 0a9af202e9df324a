/**
 * The HTTP API and its in-process twin: the routes' dependencies assembled from the parts built before, one
 * instrumented settlement shared by the routes and by callers in this process (so metrics count both alike),
 * and the server bound to `listen.host:listen.port`.
 */
import { SCHEME, X402_VERSION, type SupportedResponse } from "@svc/scheme";
import { ProfileDisabledError } from "../challenges/errors.js";
import type { Capabilities } from "../config/capabilities.js";
import type { LoadConfigReturnType } from "../config/loadConfig.js";
import type { AppDependencies } from "../http/appDependencies.js";
import { createApp } from "../http/createApp.js";
import { type ListeningApp, listenApp } from "../http/listenApp.js";
import type { Logger } from "../log/createLogger.js";
import { instrumentSettlement } from "../metrics/instrumentSettlement.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";
import { createInProcessSettlement, type InProcessSettlementHandle } from "./createInProcessSettlement.js";
import type { ChainWiring } from "./wireChain.js";
import type { ChallengeWiring } from "./wireChallenges.js";
import type { HistoryWiring } from "./wireHistory.js";
import type { OperatorWiring } from "./wireOperator.js";
import type { SettlementWiring } from "./wireSettlement.js";

/** What {@link wireHttp} reads. */
export type HttpParts = Pick<LoadConfigReturnType, "config" | "secrets"> &
  SettlementWiring & {
    capabilities: Pick<Capabilities, "acceptsPayments">;
    chain: Pick<ChainWiring, "network">;
    challenges: Pick<ChallengeWiring, "issuer">;
    operator: OperatorWiring;
    storage: FacilitatorStorage;
    history: Pick<HistoryWiring, "history">;
    logger: Logger;
  };

/** The bound server and the in-process settlement; a shutdown closes both (shutdown.ts). */
export type HttpWiring = { listening: ListeningApp; inProcess: InProcessSettlementHandle };

/** Assembles the routes' dependencies and listens. */
export async function wireHttp(parts: HttpParts): Promise<HttpWiring> {
  const { config, capabilities, logger } = parts;
  const { network } = parts.chain;
  const { issuer } = parts.challenges;
  const { metrics, readiness, admin } = parts.operator;
  const { history } = parts.history;
  const supported: SupportedResponse = {
    kinds: capabilities.acceptsPayments ? [{ x402Version: X402_VERSION, scheme: SCHEME, network }] : [],
    extensions: [],
    signers: {},
  };
  const instrumented = instrumentSettlement(metrics, parts.settlement);
  const inProcess = createInProcessSettlement({ network, acceptsPayments: capabilities.acceptsPayments, settlement: instrumented, logger });
  const deps: AppDependencies = {
    config,
    adminToken: parts.secrets.adminToken,
    logger,
    supported: () => supported,
    health: () => ({ status: "ok", profile: config.profile ?? null, chain_id: config.network.chain_id }),
    rateLimits: parts.storage.rateLimits,
    readiness: readiness.current,
    issueChallenge: async (listPrice) => {
      if (!issuer) throw new ProfileDisabledError(config.profile);
      const { offer } = await issuer.issue(listPrice);
      logger.info("challenge_issued", { challenge_nonce: offer.challengeNonce, amount: offer.amount, expires_at: offer.expiresAt });
      return offer;
    },
    ...instrumented,
    metrics,
    admin,
    ...(history === undefined ? {} : { history: history.service }),
  };
  const listening = await listenApp(createApp(deps), { host: config.listen.host, port: config.listen.port });
  return { listening, inProcess };
}
