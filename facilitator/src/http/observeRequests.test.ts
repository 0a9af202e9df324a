import { Router } from "@koa/router";
import Koa from "koa";
import { afterEach, describe, expect, it } from "vitest";

import { RateLimitExceededError } from "./errors.js";
import { HttpAnswerError } from "../errors/httpAnswerError.js";
import { createFacilitatorMetrics } from "../metrics/createFacilitatorMetrics.js";
import { parsePrometheusText, sampleValue } from "../testing/parsePrometheusText.js";
import { listenApp, type ListeningApp } from "./listenApp.js";
import { observeRequests } from "./observeRequests.js";

let listening: ListeningApp | undefined;

afterEach(async () => {
  await listening?.close(0);
  listening = undefined;
});

const metrics = () =>
  createFacilitatorMetrics({
    poolStats: () => undefined,
    poseidon: { implementation: "native", path: "portable" },
    backlog: () => ({
      intent: { count: 0, oldestAgeSeconds: null },
      accepted: { count: 0, oldestAgeSeconds: null },
      reorged: { count: 0, oldestAgeSeconds: null },
      finalized: { count: 0, oldestAgeSeconds: null },
      failed: { count: 0, oldestAgeSeconds: null },
      late_burn: { count: 0, oldestAgeSeconds: null },
    }),
    openChallenges: () => 0,
    relayerQueueDepth: () => 0,
    rpcEndpoints: () => [],
    gasBalances: () => Promise.reject(new Error("no RPC in this test")),
  });

describe("observeRequests", () => {
  it("counts history logins and proof operations by outcome, keyed on the matched route", async () => {
    const registry = metrics();
    const app = new Koa();
    const router = new Router();
    let refuse = true;
    router
      .post("/history/auth/verify", (ctx) => {
        if (refuse) throw new HttpAnswerError("bad signature", { status: 401 });
        ctx.body = { token: "t" };
      })
      .post("/history/proofs/issue", (ctx) => {
        ctx.body = { proofId: "p" };
      });
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        ctx.status = error instanceof HttpAnswerError ? error.status : 500;
      }
    });
    app.use(observeRequests(registry));
    app.use(router.routes());
    listening = await listenApp(app, { host: "127.0.0.1", port: 0 });
    const post = (path: string) => fetch(`http://${listening?.address}${path}`, { method: "POST" });

    expect((await post("/history/auth/verify")).status).toBe(401);
    refuse = false;
    expect((await post("/HISTORY/auth/verify/")).status).toBe(200);
    expect((await post("/history/proofs/issue")).status).toBe(200);
    const samples = parsePrometheusText(await registry.registry.metrics());
    expect(sampleValue(samples, "facilitator_history_logins_total", { outcome: "401" })).toBe(1);
    expect(sampleValue(samples, "facilitator_history_logins_total", { outcome: "ok" })).toBe(1);
    expect(sampleValue(samples, "facilitator_history_proofs_total", { operation: "issue", outcome: "ok" })).toBe(1);
    // A balance the RPC could not give is left out rather than reported as zero.
    expect(samples.some((sample) => sample.name === "facilitator_gas_balance_wei")).toBe(false);
  });

  it("counts rate-limit refusals by limit and by caller: the provider's name, or anonymous", async () => {
    const registry = metrics();
    const app = new Koa();
    const router = new Router();
    router.post("/settle", (ctx) => {
      if (ctx.get("x-provider") !== "") ctx.state.provider = { name: ctx.get("x-provider"), ratePerMinute: 1, challengePerPayerPerMinute: 1 };
      throw new RateLimitExceededError({ scope: ctx.get("x-provider") === "" ? "challenge_issuance" : "shared", retryAfterSeconds: 1 });
    });
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        ctx.status = error instanceof HttpAnswerError ? error.status : 500;
      }
    });
    app.use(observeRequests(registry));
    app.use(router.routes());
    listening = await listenApp(app, { host: "127.0.0.1", port: 0 });
    const post = (provider: string) =>
      fetch(`http://${listening?.address}/settle`, { method: "POST", headers: provider === "" ? {} : { "x-provider": provider } });

    expect((await post("shop")).status).toBe(429);
    expect((await post("shop")).status).toBe(429);
    expect((await post("")).status).toBe(429);
    const samples = parsePrometheusText(await registry.registry.metrics());
    expect(sampleValue(samples, "facilitator_rate_limited_total", { scope: "shared", caller: "shop" })).toBe(2);
    expect(sampleValue(samples, "facilitator_rate_limited_total", { scope: "challenge_issuance", caller: "anonymous" })).toBe(1);
  });
});
