/**
 * The fixture indexer's HTTP API, shaped like the published zERC20 indexer of the deployment's version:
 * `/healthz`, `/status`, `/events`, `/proofs`, `/tree-index`, and under v2 `/all-events`. The JSON is the
 * published one (`@svc/scheme`'s indexer encoders): u64 fields as numbers, uint256 fields as unpadded
 * lowercase hex. One error middleware turns refused requests into `{ error }` with their status.
 */
import { bodyParser } from "@koa/bodyparser";
import Router from "@koa/router";
import Koa from "koa";
import { IndexerRequestError } from "./errors.js";
import { allEventsRoute } from "./routes/allEventsRoute.js";
import { eventsRoute } from "./routes/eventsRoute.js";
import { healthzRoute } from "./routes/healthzRoute.js";
import type { IndexerState } from "./routes/indexerState.js";
import { proofsRoute } from "./routes/proofsRoute.js";
import { statusRoute } from "./routes/statusRoute.js";
import { treeIndexRoute } from "./routes/treeIndexRoute.js";

export type { IndexerState };

/** Builds the Koa app over live indexer state; `onError` receives failures that are not the client's. */
export function createIndexerApp(state: IndexerState, onError: (error: unknown) => void = () => undefined): Koa {
  const app = new Koa();
  const router = new Router();
  router.get("/healthz", healthzRoute());
  router.get("/status", statusRoute(state));
  router.get("/events", eventsRoute(state));
  if (state.protocol.version === "zerc20-v2") router.get("/all-events", allEventsRoute(state));
  router.post("/proofs", proofsRoute(state));
  router.get("/tree-index", treeIndexRoute(state));

  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof IndexerRequestError) {
        ctx.status = error.status;
        ctx.body = { error: error.shortMessage };
        return;
      }
      // The body parser's own refusals (bad JSON, too large) carry a client status.
      if (isClientHttpError(error)) {
        ctx.status = error.status;
        ctx.body = { error: error.expose === true ? error.message : "malformed request body" };
        return;
      }
      onError(error);
      ctx.status = 500;
      ctx.body = { error: "Internal Server Error" };
    }
  });
  // 1 MB: a v1 `/proofs` request may list thousands of leaves.
  app.use(bodyParser({ enableTypes: ["json"], jsonLimit: "1mb" }));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

function isClientHttpError(error: unknown): error is { status: number; message: string; expose?: boolean } {
  if (!(error instanceof Error) || !("status" in error)) return false;
  return typeof error.status === "number" && error.status >= 400 && error.status < 500;
}
