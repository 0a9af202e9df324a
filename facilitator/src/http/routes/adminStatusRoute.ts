import type { AppDependencies } from "../appDependencies.js";
import type { HttpMiddleware } from "../httpState.js";

/** `GET /admin/status`: the operator summary `facilitator status` prints (behind the admin token). */
export function adminStatusRoute(deps: Pick<AppDependencies, "admin">): HttpMiddleware {
  return async (ctx) => {
    ctx.body = await deps.admin.status();
  };
}
