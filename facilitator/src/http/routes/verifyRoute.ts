import { classifyFacilitatorBody } from "@svc/scheme";

import type { AppDependencies } from "../appDependencies.js";
import type { HttpMiddleware } from "../httpState.js";

/**
 * `POST /verify`: classifies the body and answers the core's `VerifyResponse` with HTTP 200 whatever the
 * verdict, including a malformed payload, `profile_unsupported` or `storage_unavailable`. A failed check is data, not an exception:
 * @x402/core's `HTTPFacilitatorClient` throws on a non-2xx answer even when its body carries `isValid`, which
 * would turn a clean "invalid payment" into a provider error and lose the reason code.
 */
export function verifyRoute(deps: Pick<AppDependencies, "verify">): HttpMiddleware {
  return async (ctx) => {
    ctx.body = await deps.verify(classifyFacilitatorBody(ctx.request.body));
    ctx.status = 200;
  };
}
