import { afterEach, describe, expect, it } from "vitest";

import { startTestServer, TEST_HTTP_ADMIN_TOKEN, type TestServer } from "./testing/buildAppDependencies.js";

let servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function start(adminToken: string | undefined): Promise<string> {
  const server = await startTestServer({ adminToken });
  servers.push(server);
  return server.url;
}

/** Status, every header except the clock's `date`, and the exact body bytes. */
async function snapshot(response: Response): Promise<{ status: number; headers: [string, string][]; body: string }> {
  const headers = [...response.headers.entries()].filter(([name]) => name !== "date");
  return { status: response.status, headers, body: await response.text() };
}

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

describe("admin authentication", () => {
  it("refuses every request when no token is configured, even one presenting a token", async () => {
    const url = await start(undefined);
    for (const headers of [{}, bearer(TEST_HTTP_ADMIN_TOKEN), bearer("")]) {
      const response = await fetch(`${url}/admin/challenges`, { headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "unauthorized" });
    }
  });

  it("refuses a missing, wrong, longer, shorter or non-bearer token with 401", async () => {
    const url = await start(TEST_HTTP_ADMIN_TOKEN);
    const attempts: Record<string, string>[] = [
      {},
      bearer("wrong"),
      bearer(`${TEST_HTTP_ADMIN_TOKEN}x`),
      bearer(TEST_HTTP_ADMIN_TOKEN.slice(0, -1)),
      { authorization: `Basic ${TEST_HTTP_ADMIN_TOKEN}` },
      { authorization: TEST_HTTP_ADMIN_TOKEN },
    ];
    for (const headers of attempts) {
      const response = await fetch(`${url}/admin/challenges`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
    }
  });

  it("answers locked and wrong-token requests with byte-identical responses", async () => {
    const locked = await start(undefined);
    const configured = await start(TEST_HTTP_ADMIN_TOKEN);
    const lockedAnswer = await snapshot(await fetch(`${locked}/admin/settlements`, { headers: bearer("guess") }));
    const wrongAnswer = await snapshot(await fetch(`${configured}/admin/settlements`, { headers: bearer("guess") }));
    expect(lockedAnswer).toEqual(wrongAnswer);
    expect(lockedAnswer).toMatchInlineSnapshot(`
      {
        "body": "{"error":"unauthorized"}",
        "headers": [
          [
            "cache-control",
            "no-store",
          ],
          [
            "connection",
            "keep-alive",
          ],
          [
            "content-length",
            "24",
          ],
          [
            "content-type",
            "application/json; charset=utf-8",
          ],
          [
            "keep-alive",
            "timeout=5",
          ],
          [
            "www-authenticate",
            "Bearer",
          ],
        ],
        "status": 401,
      }
    `);
  });

  it("guards admin paths no route serves, in any letter case, so the surface is not revealed", async () => {
    const url = await start(TEST_HTTP_ADMIN_TOKEN);
    for (const path of ["/admin", "/admin/", "/admin/unknown", "/ADMIN/challenges", "/Admin/Settlements"]) {
      const response = await fetch(`${url}${path}`);
      expect(response.status, path).toBe(401);
    }
    const unknown = await fetch(`${url}/admin/unknown`, { headers: bearer(TEST_HTTP_ADMIN_TOKEN) });
    expect(unknown.status).toBe(404);
  });

  it("serves the admin routes with the right token, the scheme name in any case", async () => {
    const url = await start(TEST_HTTP_ADMIN_TOKEN);
    const challenges = await fetch(`${url}/admin/challenges`, { headers: bearer(TEST_HTTP_ADMIN_TOKEN) });
    expect(challenges.status).toBe(200);
    expect(await challenges.json()).toEqual({ open: 2, retainedExpired: 1, maxOpen: 1000 });
    const lowercase = await fetch(`${url}/admin/challenges`, {
      headers: { authorization: `bearer ${TEST_HTTP_ADMIN_TOKEN}` },
    });
    expect(lowercase.status).toBe(200);
  });
});

describe("GET /admin/settlements", () => {
  const headers = bearer(TEST_HTTP_ADMIN_TOKEN);

  it("lists every settlement without a state and filters by a known state", async () => {
    const url = await start(TEST_HTTP_ADMIN_TOKEN);
    const all = await fetch(`${url}/admin/settlements`, { headers });
    expect(all.status).toBe(200);
    const allBody: unknown = await all.json();
    expect(allBody).toMatchObject({ settlements: [{ state: "accepted" }, { state: "late_burn" }] });
    const late = await fetch(`${url}/admin/settlements?state=late_burn`, { headers });
    expect(await late.json()).toMatchObject({ settlements: [{ state: "late_burn" }] });
    const finalized = await fetch(`${url}/admin/settlements?state=finalized`, { headers });
    expect(await finalized.json()).toEqual({
      settlements: [],
      total: 0,
      limit: 100,
      offset: 0,
      counts: { accepted: 1, finalized: 0, failed: 0, late_burn: 1 },
    });
  });

  it("pages with limit and offset and refuses a bad limit", async () => {
    const url = await start(TEST_HTTP_ADMIN_TOKEN);
    const second = await fetch(`${url}/admin/settlements?limit=1&offset=1`, { headers });
    expect(await second.json()).toMatchObject({ settlements: [{ state: "late_burn" }], total: 2, limit: 1, offset: 1 });
    for (const query of ["limit=0", "limit=1001", "limit=-1", "limit=1.5", "offset=x", "limit=1&limit=2"]) {
      expect((await fetch(`${url}/admin/settlements?${query}`, { headers })).status).toBe(400);
    }
  });

  it.each(["pending", "", "ACCEPTED", "accepted&state=failed"])("refuses state=%s with 400", async (state) => {
    const url = await start(TEST_HTTP_ADMIN_TOKEN);
    const response = await fetch(`${url}/admin/settlements?state=${state}`, { headers });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "invalid request: state must be one of accepted, finalized, failed, late_burn",
    });
  });
});
