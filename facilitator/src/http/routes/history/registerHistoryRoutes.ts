import type { Router } from "@koa/router";

import type { HistoryService } from "../../../history/createHistoryService.js";
import type { HttpState } from "../../httpState.js";
import { readJsonBody } from "../../readJsonBody.js";
import { historyChallengeRoute } from "./historyChallengeRoute.js";
import { historyPaymentRoute } from "./historyPaymentRoute.js";
import { historyPaymentsRoute } from "./historyPaymentsRoute.js";
import { HISTORY_CHALLENGES_PER_MINUTE, HISTORY_VERIFICATIONS_PER_MINUTE, historyRateLimit } from "./historyRateLimit.js";
import { historyVerifyRoute } from "./historyVerifyRoute.js";
import { proofIssueRoute } from "./proofIssueRoute.js";
import { proofRevokeRoute } from "./proofRevokeRoute.js";
import { proofVerifyRoute } from "./proofVerifyRoute.js";

/** Test seams of {@link registerHistoryRoutes}. */
export type RegisterHistoryRoutesOptions = {
  /** Monotonic clock in milliseconds for the login rate limits. */
  now?: (() => number) | undefined;
};

/**
 * Registers the `/history/*` routes on `router`; the app calls it only when history is configured, so without
 * it these paths are plain 404s. The three proof routes are one group, registered only with the proof
 * service: there is no verify-only or revoke-only mode. The login limits read the body (for the subject), so
 * they run after `readJsonBody`, whose 64 KiB bound keeps that cheap.
 */
export function registerHistoryRoutes(router: Router<HttpState>, service: HistoryService, options: RegisterHistoryRoutesOptions = {}): void {
  const challengeLimit = historyRateLimit({ scope: "history_challenge", perMinute: HISTORY_CHALLENGES_PER_MINUTE, now: options.now });
  const verifyLimit = historyRateLimit({ scope: "history_verify", perMinute: HISTORY_VERIFICATIONS_PER_MINUTE, now: options.now });
  router
    .post("/history/auth/challenge", readJsonBody, historyChallengeRoute(service, challengeLimit))
    .post("/history/auth/verify", readJsonBody, historyVerifyRoute(service, verifyLimit))
    .get("/history/payments", historyPaymentsRoute(service))
    .get("/history/payments/:paymentId", historyPaymentRoute(service));
  const proofs = service.proofs;
  if (proofs === undefined) return;
  router
    .post("/history/proofs/issue", readJsonBody, proofIssueRoute(service, proofs))
    .post("/history/proofs/verify", readJsonBody, proofVerifyRoute(service, proofs))
    .post("/history/proofs/revoke", readJsonBody, proofRevokeRoute(service, proofs));
}
