import { classifyFacilitatorBody, STORAGE_UNAVAILABLE } from "@svc/scheme";

import type { AppDependencies } from "../appDependencies.js";
import type { HttpMiddleware } from "../httpState.js";
import { NOT_READY_RETRY_AFTER_SECONDS } from "../requireReady.js";

/**
 * `POST /settle`: classifies the body (x402 shape or a legacy direct body) and answers the core's
 * `SettleResponse` with HTTP 200 on success and failure alike (`pending_burn`, `profile_unsupported`, a
 * malformed payload). A failed settlement is data, not an exception: @x402/core's `HTTPFacilitatorClient`
 * throws on a non-2xx answer even when its body carries `success`, and the provider needs the `errorReason`.
 * One exception: `storage_unavailable` (the shared database is down) answers 503 with `Retry-After`, an outage
 * that a retry fixes; the client still reads the `SettleResponse` body, as a `SettleError` carrying the reason.
 */
export function settleRoute(deps: Pick<AppDependencies, "settle">): HttpMiddleware {
  return async (ctx) => {
    const answer = await deps.settle(classifyFacilitatorBody(ctx.request.body));
    ctx.body = answer;
    ctx.status = 200;
    if (answer.errorReason === STORAGE_UNAVAILABLE) {
      ctx.status = 503;
      ctx.set("Retry-After", String(NOT_READY_RETRY_AFTER_SECONDS));
    }
  };
}
