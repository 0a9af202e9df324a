import type { HttpMiddleware } from "./httpState.js";

/**
 * Marks every answer `Cache-Control: no-store`: offers are one-time, verify and settle answers are
 * point-in-time, and admin data is private, so no cache between here and the provider may keep any of them.
 */
export const preventCaching: HttpMiddleware = async (ctx, next) => {
  ctx.set("Cache-Control", "no-store");
  await next();
};
