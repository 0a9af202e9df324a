import { Router } from "@koa/router";
import Koa from "koa";

import { answerUnrouted } from "./answerUnrouted.js";
import type { AppDependencies } from "./appDependencies.js";
import { errorLogFields } from "./errorLogFields.js";
import { handleErrors } from "./handleErrors.js";
import type { HttpState } from "./httpState.js";
import { attachInFlightRequests, InFlightRequests } from "./inFlightRequests.js";
import { preventCaching } from "./preventCaching.js";
import { callerRateLimit } from "./callerRateLimit.js";
import { identifyProvider } from "./identifyProvider.js";
import { rateLimitKey } from "./rateLimitKey.js";
import { observeRequests } from "./observeRequests.js";
import { readJsonBody } from "./readJsonBody.js";
import { requireReady } from "./requireReady.js";
import { requireAdminToken } from "./requireAdminToken.js";
import { resolveClientIp } from "./resolveClientIp.js";
import { adminChallengesRoute } from "./routes/adminChallengesRoute.js";
import { adminPageRoute, OPERATOR_PAGE_PATH } from "./routes/adminPageRoute.js";
import { adminSettlementsRoute } from "./routes/adminSettlementsRoute.js";
import { adminStatusRoute } from "./routes/adminStatusRoute.js";
import { adminWithdrawalWitnessRoute } from "./routes/adminWithdrawalWitnessRoute.js";
import { challengeRoute } from "./routes/challengeRoute.js";
import { healthRoute } from "./routes/healthRoute.js";
import { metricsRoute } from "./routes/metricsRoute.js";
import { readyRoute } from "./routes/readyRoute.js";
import { settleRoute } from "./routes/settleRoute.js";
import { supportedRoute } from "./routes/supportedRoute.js";
import { verifyRoute } from "./routes/verifyRoute.js";
import { registerHistoryRoutes } from "./routes/history/registerHistoryRoutes.js";

/** Test seams of {@link createApp}; the daemon passes none. */
export type CreateAppOptions = {
  /** Clock in milliseconds for the rate limits. */
  now?: () => number;
};

/**
 * Builds the facilitator's Koa app: the payment routes, the admin surface and the middleware around them.
 * Order matters and is fixed here: in-flight tracking and the error boundary wrap everything; the client IP
 * is resolved before anything keys on it; the admin token is checked before routing so unknown admin paths
 * are refused too; on the money routes the rate limits run before the body is read, so a throttled client
 * costs no parsing.
 *
 * @example
 * const app = createApp(deps);
 * const listening = await listenApp(app, { host: "127.0.0.1", port: 4032 });
 */
export function createApp(deps: AppDependencies, options: CreateAppOptions = {}): Koa<HttpState> {
  const app = new Koa<HttpState>();
  const inFlight = new InFlightRequests();
  attachInFlightRequests(app, inFlight);
  // Errors that escape after a response started (a broken socket while writing) reach Koa, not our boundary.
  app.on("error", (error: unknown) => deps.logger.error("http_error", { status: 500, ...errorLogFields(error) }));

  const identify = identifyProvider(deps.config);
  // Anonymous callers are limited per IP; an authenticated provider has its own money budget, and its
  // payers (by the address it forwards) their own issuance budgets.
  const shared = callerRateLimit({
    scope: "shared",
    perMinuteByIp: deps.config.daemon.rate_limit_per_min,
    forProvider: (provider) => ({ bucket: `provider:${provider.name}`, perMinute: provider.ratePerMinute }),
    now: options.now,
    counts: deps.rateLimits,
  });
  const issuance = callerRateLimit({
    scope: "challenge_issuance",
    perMinuteByIp: deps.config.daemon.challenge_per_key_per_min,
    forProvider: (provider, state) => ({
      bucket: `provider:${provider.name}|payer:${state.payerAddress === undefined ? "unknown" : rateLimitKey(state.payerAddress)}`,
      perMinute: provider.challengePerPayerPerMinute,
    }),
    now: options.now,
    counts: deps.rateLimits,
  });

  const router = new Router<HttpState>();
  router
    .get("/supported", supportedRoute(deps))
    .get("/healthz", healthRoute(deps))
    .get("/readyz", readyRoute(deps))
    // Readiness before the limits: a refusal for an outage must not spend the caller's issuance budget.
    .post("/challenge", identify, requireReady(deps), shared, issuance, readJsonBody, challengeRoute(deps))
    .post("/verify", identify, shared, readJsonBody, verifyRoute(deps))
    .post("/settle", identify, shared, readJsonBody, settleRoute(deps))
    .get("/admin/challenges", adminChallengesRoute(deps))
    .get(OPERATOR_PAGE_PATH, adminPageRoute(deps))
    .get("/admin/settlements", adminSettlementsRoute(deps))
    .get("/admin/status", adminStatusRoute(deps))
    .get("/admin/withdrawal-witness/:challengeNonce", adminWithdrawalWitnessRoute(deps));
  // Only with the complete history environment; otherwise /history/* is not served at all.
  if (deps.history) registerHistoryRoutes(router, deps.history, { now: options.now });
  if (deps.metrics) router.get("/metrics", metricsRoute(deps.metrics));

  app
    .use(inFlight.middleware)
    .use(handleErrors(deps.logger))
    .use(deps.metrics ? observeRequests(deps.metrics) : (_ctx, next) => next())
    .use(preventCaching)
    .use(resolveClientIp(deps.config.listen.trusted_proxies))
    .use(
      requireAdminToken(deps.adminToken, {
        alsoGuarded: deps.config.daemon.public_metrics ? [] : ["/metrics"],
        basicAuthPaths: [OPERATOR_PAGE_PATH],
      }),
    )
    .use(answerUnrouted)
    .use(router.routes())
    .use(router.allowedMethods());
  return app;
}
