/**
 * `/metrics` against a real stack: the admin token guards it, and the exposition (parsed, not grepped) moves
 * with a paid request.
 */
import { selectPoseidon } from "@svc/scheme";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  startTestDaemon,
  startTestStack,
  type TestDaemon,
  type TestStack,
} from "../testing/localFacilitator.js";
import { parsePrometheusText, sampleValue, type PrometheusSample } from "../testing/parsePrometheusText.js";

let stack: TestStack;
let daemon: TestDaemon;

beforeAll(async () => {
  stack = await startTestStack();
  daemon = await startTestDaemon(stack, "metrics", { daemon: { finalize_interval_ms: 600_000, challenge_per_key_per_min: 2 } });
});

afterAll(async () => {
  await daemon?.stop();
  await stack?.close();
});

async function scrape(): Promise<PrometheusSample[]> {
  const response = await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${stack.env.SVC_ADMIN_TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await response.text());
}

describe("/metrics", () => {
  it("refuses a scrape without the admin token", async () => {
    expect((await fetch(`${daemon.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${daemon.url}/METRICS/`)).status).toBe(401);
  });

  it("moves with a paid request", async () => {
    const before = await scrape();
    expect(sampleValue(before, "facilitator_offers_issued_total")).toBe(0);
    expect(sampleValue(before, "facilitator_settlements", { state: "accepted" })).toBe(0);
    expect(sampleValue(before, "facilitator_burn_address_stock")).toBeGreaterThan(0);
    expect(sampleValue(before, "facilitator_gas_balance_wei", { account: "relayer" })).toBeGreaterThan(0);

    const requirements = await requestOffer(daemon, "4321");
    const open = await scrape();
    expect(sampleValue(open, "facilitator_offers_issued_total")).toBe(1);
    expect(sampleValue(open, "facilitator_open_challenges")).toBe(1);

    const burnTxHash = await broadcastBurn(stack, requirements, stack.deployment.accounts.payer.privateKey);
    const payload = { challengeNonce: requirements.extra.challengeNonce, burnTxHash };
    expect((await postJson(`${daemon.url}/verify`, facilitatorBody(requirements, payload))).body.isValid).toBe(true);
    expect((await postJson(`${daemon.url}/settle`, facilitatorBody(requirements, payload))).body.success).toBe(true);
    const bogus = { challengeNonce: `0x${"77".repeat(32)}`, burnTxHash };
    expect((await postJson(`${daemon.url}/settle`, facilitatorBody(requirements, bogus))).body.success).toBe(false);

    const after = await scrape();
    expect(sampleValue(after, "facilitator_verify_total", { outcome: "valid" })).toBe(1);
    expect(sampleValue(after, "facilitator_settle_total", { outcome: "accepted" })).toBe(1);
    const refusedReasons = after.filter((sample) => sample.name === "facilitator_settle_total" && sample.labels.outcome !== "accepted");
    expect(refusedReasons.map((sample) => [sample.labels.outcome, sample.value])).toEqual([["unknown_challenge", 1]]);
    expect(sampleValue(after, "facilitator_settle_duration_seconds_count", { result: "success" })).toBe(1);
    expect(sampleValue(after, "facilitator_settle_duration_seconds_bucket", { result: "success", le: "+Inf" })).toBe(1);
    expect(sampleValue(after, "facilitator_settlements", { state: "accepted" })).toBe(1);
    expect(sampleValue(after, "facilitator_settlement_oldest_age_seconds", { state: "accepted" })).toBeGreaterThanOrEqual(0);
    expect(sampleValue(after, "facilitator_open_challenges")).toBe(0);
  });

  it("reports the stock's target within its bounds, both rates, and a stock that does not run out (after the offer above)", async () => {
    const samples = await scrape();
    // The test daemon keeps two addresses at least and, by default, four times that at most.
    const target = sampleValue(samples, "facilitator_burn_address_stock_target");
    expect(target).toBeGreaterThanOrEqual(2);
    expect(target).toBeLessThanOrEqual(8);
    expect(sampleValue(samples, "facilitator_burn_address_offer_rate")).toBeGreaterThan(0);
    expect(sampleValue(samples, "facilitator_burn_address_derivation_rate")).toBeGreaterThan(0);
    expect(sampleValue(samples, "facilitator_burn_address_stock_lasts_seconds")).toBe(Number.POSITIVE_INFINITY);
  });

  it("names the Poseidon implementation and search path in one info series", async () => {
    const info = (await scrape()).filter((sample) => sample.name === "facilitator_poseidon_info");
    // The stack's environment forces no path: the fastest this processor has.
    expect(info).toEqual([
      { name: "facilitator_poseidon_info", labels: { implementation: "native", path: selectPoseidon("native").implementation.path }, value: 1 },
    ]);
  });

  it("counts refused offers by reason", async () => {
    // The per-key issuance limit is 2 per minute, spent before the body is read: the offer above and the
    // malformed request below use it up, so the third request is refused for its rate.
    expect((await postJson(`${daemon.url}/challenge`, { amount: "-1" })).status).toBe(400);
    expect((await postJson(`${daemon.url}/challenge`, { amount: "5" })).status).toBe(429);
    const samples = await scrape();
    expect(sampleValue(samples, "facilitator_offers_refused_total", { reason: "issuance_rate" })).toBe(1);
    expect(sampleValue(samples, "facilitator_offers_refused_total", { reason: "invalid_request" })).toBe(1);
    expect(sampleValue(samples, "facilitator_offers_issued_total")).toBe(1);
  });
});
