import { MethodNotAllowedError, RouteNotFoundError } from "./errors.js";
import type { HttpMiddleware } from "./httpState.js";

/**
 * Turns the router's bodiless 404 and 405 into our JSON errors, so a client that got the path or method wrong
 * reads the same `{ error }` shape as every other refusal. Mount it before the router: it inspects what the
 * router left behind.
 */
export const answerUnrouted: HttpMiddleware = async (ctx, next) => {
  await next();
  if (ctx.body !== undefined && ctx.body !== null) return;
  if (ctx.status === 404) throw new RouteNotFoundError();
  if (ctx.status === 405) throw new MethodNotAllowedError({ allow: ctx.response.get("Allow") });
};
