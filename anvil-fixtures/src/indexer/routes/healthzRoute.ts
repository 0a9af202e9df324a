import type { Middleware } from "koa";

/** `GET /healthz`: 200 with an empty body, as the published indexer answers. */
export function healthzRoute(): Middleware {
  return (ctx) => {
    ctx.status = 200;
    ctx.body = "";
  };
}
