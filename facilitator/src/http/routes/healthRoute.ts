import type { AppDependencies } from "../appDependencies.js";
import type { HttpMiddleware } from "../httpState.js";

/** `GET /healthz`: a liveness probe; it only reads `deps.health()` and never touches settlement state. */
export function healthRoute(deps: Pick<AppDependencies, "health">): HttpMiddleware {
  return (ctx) => {
    ctx.body = deps.health();
  };
}
