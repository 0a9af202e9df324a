/**
 * The baseline for `/challenge` throughput: a bare Koa app with one `POST /challenge` route that answers a
 * fixed JSON body (a real offer captured from the facilitator, so the response is the same size), with no
 * body parsing, validation, rate limiting or burn-address work.
 *
 * Environment: `BODY` (the JSON to answer), `PORT` (0 = free port).
 */
import type { AddressInfo } from "node:net";
import { Router } from "@koa/router";
import Koa from "koa";
import { announceListening, integerEnv, requireEnv } from "./serverEnv.js";

const body: unknown = JSON.parse(requireEnv("BODY"));

const router = new Router();
router.post("/challenge", (ctx) => {
  ctx.body = body;
});
const app = new Koa();
app.use(router.routes()).use(router.allowedMethods());

const server = app.listen(integerEnv("PORT", 0), "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  announceListening(`http://127.0.0.1:${port}`, { bytes: Buffer.byteLength(JSON.stringify(body)) });
});
const stop = () => server.close(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
