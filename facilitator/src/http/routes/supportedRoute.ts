import type { AppDependencies } from "../appDependencies.js";
import type { HttpMiddleware } from "../httpState.js";

/** `GET /supported`: the advertise body the x402 middleware reads at start-up (empty `kinds` off `local`). */
export function supportedRoute(deps: Pick<AppDependencies, "supported">): HttpMiddleware {
  return (ctx) => {
    ctx.body = deps.supported();
  };
}
