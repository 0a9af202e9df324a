/**
 * `GET /admin/page` against fake dependencies: the credentials it takes (bearer, Basic password, never the
 * URL), the challenge it answers with, and its security headers. The real daemon and a browser are in
 * operatorPage.test.ts.
 */
import { afterEach, describe, expect, it } from "vitest";

import { BASIC_CHALLENGE } from "./requireAdminToken.js";
import { type AppDependenciesOverrides, startTestServer, TEST_HTTP_ADMIN_TOKEN, type TestServer } from "./testing/buildAppDependencies.js";

let servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function start(overrides: AppDependenciesOverrides = {}): Promise<string> {
  const server = await startTestServer(overrides);
  servers.push(server);
  return server.url;
}

function basic(username: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}` };
}

describe("GET /admin/page", () => {
  it("serves the page for the token as a Basic password under any username, or as a bearer token", async () => {
    const url = await start();
    for (const headers of [basic("", TEST_HTTP_ADMIN_TOKEN), basic("anyone", TEST_HTTP_ADMIN_TOKEN), { authorization: `Bearer ${TEST_HTTP_ADMIN_TOKEN}` }]) {
      const response = await fetch(`${url}/admin/page`, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await response.text()).toContain("<title>svc-facilitator operator page</title>");
    }
    expect((await fetch(`${url}/ADMIN/Page/`, { headers: basic("x", TEST_HTTP_ADMIN_TOKEN) })).status).toBe(200);
  });

  it("sets the security headers", async () => {
    const url = await start();
    const response = await fetch(`${url}/admin/page`, { headers: basic("x", TEST_HTTP_ADMIN_TOKEN) });
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-security-policy")).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; img-src data:;.*frame-ancestors 'none'$/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });

  it("refuses missing, wrong and malformed credentials, and a token in the URL, with the Basic challenge", async () => {
    const url = await start();
    const attempts: [string, Record<string, string>][] = [
      ["/admin/page", {}],
      ["/admin/page", basic("admin", "wrong")],
      ["/admin/page", basic(TEST_HTTP_ADMIN_TOKEN, "")],
      ["/admin/page", { authorization: `Basic ${Buffer.from(TEST_HTTP_ADMIN_TOKEN).toString("base64")}` }],
      ["/admin/page", { authorization: `Basic ${TEST_HTTP_ADMIN_TOKEN}:` }],
      ["/admin/page", { authorization: "Basic %%%%" }],
      ["/admin/page", { authorization: `Basic ${"A".repeat(6000)}` }],
      ["/admin/page", { authorization: `Bearer ${TEST_HTTP_ADMIN_TOKEN}x` }],
      [`/admin/page?token=${TEST_HTTP_ADMIN_TOKEN}`, {}],
      [`/admin/page?access_token=${TEST_HTTP_ADMIN_TOKEN}&authorization=Bearer%20${TEST_HTTP_ADMIN_TOKEN}`, {}],
    ];
    for (const [path, headers] of attempts) {
      const response = await fetch(`${url}${path}`, { headers });
      expect(response.status, path).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe(BASIC_CHALLENGE);
      expect(await response.json()).toEqual({ error: "unauthorized" });
    }
  });

  it("answers with the Basic challenge when no token is configured, and takes Basic nowhere else", async () => {
    const locked = await start({ adminToken: undefined });
    const refused = await fetch(`${locked}/admin/page`, { headers: basic("x", TEST_HTTP_ADMIN_TOKEN) });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe(BASIC_CHALLENGE);
    const url = await start();
    const elsewhere = await fetch(`${url}/admin/status`, { headers: basic("x", TEST_HTTP_ADMIN_TOKEN) });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("ignores the query string and refuses other methods without a 5xx", async () => {
    const url = await start();
    const headers = basic("x", TEST_HTTP_ADMIN_TOKEN);
    const plain = await fetch(`${url}/admin/page`, { headers });
    const queried = await fetch(`${url}/admin/page?state=%ff%fe&limit[]=1&x=<script>`, { headers });
    expect(queried.status).toBe(200);
    expect((await queried.text()).replace(/taken at [^,]+/, "")).toBe((await plain.text()).replace(/taken at [^,]+/, ""));
    expect((await fetch(`${url}/admin/page`, { method: "POST", headers })).status).toBe(405);
    expect((await fetch(`${url}/admin/page`, { method: "HEAD", headers })).status).toBe(200);
  });
});
