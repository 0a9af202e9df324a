import type { AppDependencies } from "../appDependencies.js";
import type { HttpMiddleware } from "../httpState.js";

/** `GET /admin/challenges`: open and retained-expired challenge counts against the cap (behind the admin token). */
export function adminChallengesRoute(deps: Pick<AppDependencies, "admin">): HttpMiddleware {
  return (ctx) => {
    ctx.body = deps.admin.challenges();
  };
}
