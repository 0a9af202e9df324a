import { classifyFacilitatorBody } from "@svc/scheme";

import type { AppDependencies } from "../appDependencies.js";
import type { HttpMiddleware } from "../httpState.js";

/**
 * `POST /settle`: classifies the body (x402 shape or a legacy direct body) and answers the core's
 * `SettleResponse` with HTTP 200 on success and failure alike (`pending_burn`, `profile_unsupported`, a
 * malformed payload). A failed settlement is data, not an exception: @x402/core's `HTTPFacilitatorClient`
 * throws on a non-2xx answer even when its body carries `success`, and the provider needs the `errorReason`.
 */
export function settleRoute(deps: Pick<AppDependencies, "settle">): HttpMiddleware {
  return async (ctx) => {
    ctx.body = await deps.settle(classifyFacilitatorBody(ctx.request.body));
    ctx.status = 200;
  };
}
