import { operatorPageView } from "../../operator/operatorPageView.js";
import { renderOperatorPage } from "../../operator/renderOperatorPage.js";
import type { AppDependencies } from "../appDependencies.js";
import type { HttpMiddleware } from "../httpState.js";

/** Where the operator page is served; `requireAdminToken` takes Basic credentials here. */
export const OPERATOR_PAGE_PATH = "/admin/page";

/**
 * The page holds no script and loads nothing: the policy allows inline styles (the page's one `<style>`)
 * and nothing else, so even markup that slipped past escaping could not run or phone home. Framing is
 * refused, since a framed admin page invites clickjacking even when it is read-only.
 */
const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
} as const;

/**
 * `GET /admin/page`: the read-only operator page (behind the admin token): readiness, backlog, recent
 * payments, stock, anonymity figures, balances and a throughput chart, from the same sources as
 * `GET /admin/status`. The query string is ignored, so nothing a caller appends changes the answer.
 */
export function adminPageRoute(
  deps: Pick<AppDependencies, "admin" | "readiness" | "config">,
  now: () => number = () => Math.floor(Date.now() / 1000),
): HttpMiddleware {
  return async (ctx) => {
    const [readiness, status] = await Promise.all([deps.readiness(), deps.admin.status()]);
    const view = operatorPageView({
      now: now(),
      profile: deps.config.profile,
      finalize: deps.config.finalize,
      readiness,
      status,
      settlements: deps.admin.settlements(undefined),
    });
    ctx.set(PAGE_HEADERS);
    ctx.body = renderOperatorPage(view);
  };
}
