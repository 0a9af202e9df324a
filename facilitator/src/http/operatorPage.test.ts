/**
 * The operator page on a real daemon over a real local stack, with one settled payment: the admin token
 * over HTTP (Basic and bearer, the challenge, the headers), then the page in headless Chromium, which
 * enforces the Content-Security-Policy for real, so a blocked style or an error shows up in its console.
 */
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { shortenHex } from "../operator/operatorPageView.js";
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
import { BASIC_CHALLENGE } from "./requireAdminToken.js";

/** Debian's chromium; `make tools` installs it. */
const CHROMIUM = "/usr/bin/chromium";

let stack: TestStack;
let daemon: TestDaemon;
let token: string;
let nonce: string;
// The offer's amount, list price plus the payer-charged fee: what the book records.
let amount: string;

beforeAll(async () => {
  stack = await startTestStack();
  token = stack.env.SVC_ADMIN_TOKEN ?? "";
  daemon = await startTestDaemon(stack, "operator-page", { daemon: { finalize_interval_ms: 600_000 } });
  const requirements = await requestOffer(daemon, "2500");
  nonce = requirements.extra.challengeNonce;
  amount = requirements.amount;
  const burnTxHash = await broadcastBurn(stack, requirements, stack.deployment.accounts.payer.privateKey);
  const settled = await postJson(`${daemon.url}/settle`, facilitatorBody(requirements, { challengeNonce: nonce, burnTxHash }));
  expect(settled.body.success).toBe(true);
});

afterAll(async () => {
  await daemon?.stop();
  await stack?.close();
});

const basic = (password: string) => `Basic ${Buffer.from(`operator:${password}`).toString("base64")}`;

describe("GET /admin/page on a live daemon", () => {
  it("challenges a browser without the token and refuses a wrong one", async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: basic(`${token}x`) }, { authorization: `Bearer ${token}x` }];
    for (const headers of attempts) {
      const response = await fetch(`${daemon.url}/admin/page`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe(BASIC_CHALLENGE);
    }
  });

  it("serves the page with Basic and with bearer credentials, the settled payment listed, the token nowhere", async () => {
    for (const authorization of [basic(token), `Bearer ${token}`]) {
      const response = await fetch(`${daemon.url}/admin/page`, { headers: { authorization } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("content-security-policy")).toContain("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      const page = await response.text();
      expect(page).toContain(`<code>${shortenHex(nonce)}</code>`);
      expect(page).not.toContain(nonce);
      expect(page).not.toContain(token);
      expect(page).toMatch(/<tr><td>accepted<\/td><td class="num">1<\/td><td>\d+s<\/td><\/tr>/);
    }
    expect(daemon.logs.join("\n")).not.toContain(token);
  });

  it("renders in headless Chromium under its CSP without a console error", async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: run make tools (apt-get install chromium)`).toBe(true);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    try {
      const context = await browser.newContext({ httpCredentials: { username: "operator", password: token } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));
      const response = await page.goto(`${daemon.url}/admin/page`);
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe("svc-facilitator operator page");
      expect(await page.locator("#backlog tbody tr").count()).toBe(6);
      expect(await page.locator("#backlog tbody tr", { hasText: "accepted" }).first().locator("td").nth(1).textContent()).toBe("1");
      expect(await page.locator("#throughput svg rect.bar").count()).toBeGreaterThanOrEqual(1);
      const row = page.locator("#recent tbody tr", { hasText: shortenHex(nonce) });
      expect(await row.count()).toBe(1);
      expect(await row.locator("td").nth(2).textContent()).toBe(amount);
      // The inline <style> applied: a blocked stylesheet would leave the table borders unset.
      // The test project has no DOM types, so the check runs as page-side source.
      expect(await page.evaluate("getComputedStyle(document.querySelector('table')).borderCollapse")).toBe("collapse");
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
