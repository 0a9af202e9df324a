import { request } from "node:http";

import { MALFORMED_PAYLOAD, PROFILE_UNSUPPORTED } from "@svc/scheme";
import { afterEach, describe, expect, it } from "vitest";

import { BurnAddressUnavailableError, ChallengeCapacityError } from "../challenges/errors.js";
import { QuoteOutOfRangeError } from "../challenges/errors.js";
import { TrustedProxiesError } from "./errors.js";
import { createApp } from "./createApp.js";
import { MAX_REQUEST_BODY_BYTES } from "./readJsonBody.js";
import {
  type AppDependenciesOverrides,
  buildAppDependencies,
  buildMemoryLogger,
  startTestServer,
  TEST_HTTP_ADMIN_TOKEN,
  TEST_HTTP_BURN_TX,
  type TestServer,
} from "./testing/buildAppDependencies.js";

const SELF_TRANSFER_BODY = { challengeNonce: `0x${"cd".repeat(32)}`, burnTxHash: TEST_HTTP_BURN_TX };
const SIGNATURE = `0x${"5a".repeat(65)}`;

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(overrides: AppDependenciesOverrides = {}): Promise<string> {
  server = await startTestServer(overrides);
  return server.url;
}

function postJson(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describe("public routes", () => {
  it("answers /supported and /healthz from the dependencies", async () => {
    const url = await start();
    const supported = await fetch(`${url}/supported`);
    expect(supported.status).toBe(200);
    expect(await supported.json()).toEqual({
      kinds: [{ x402Version: 2, scheme: "svc-zerc20", network: "eip155:31337" }],
      extensions: [],
      signers: {},
    });
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    expect(health.headers.get("cache-control")).toBe("no-store");
  });

  it("answers a challenge offer for a valid amount", async () => {
    const url = await start();
    const response = await postJson(url, "/challenge", { amount: "1000" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ amount: "1000", chainId: 31337 });
  });

  it("accepts a JSON body sent without a JSON content type", async () => {
    const url = await start();
    const response = await fetch(`${url}/challenge`, { method: "POST", body: JSON.stringify({ amount: "7" }) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ amount: "7" });
  });

  it.each([
    ["-1", { amount: "-1" }],
    ["1.5", { amount: "1.5" }],
    ["01", { amount: "01" }],
    ["a number", { amount: 10 }],
    ["missing", {}],
    ["an array", []],
  ])("refuses a /challenge amount that is %s with 400", async (_label, body) => {
    const url = await start();
    const response = await postJson(url, "/challenge", body);
    expect(response.status).toBe(400);
    const answer: unknown = await response.json();
    expect(answer).toEqual({ error: expect.stringMatching(/^invalid request: /) });
  });

  it("names the rule a bad amount breaks", async () => {
    const url = await start();
    const response = await postJson(url, "/challenge", { amount: "01" });
    expect(await response.json()).toMatchInlineSnapshot(`
      {
        "error": "invalid request: amount: expected a plain non-negative decimal integer string",
      }
    `);
  });

  it("lists 404 and 405 as JSON errors", async () => {
    const url = await start();
    const missing = await fetch(`${url}/nowhere`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "not found" });
    const wrongMethod = await fetch(`${url}/challenge`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toContain("POST");
    expect(await wrongMethod.json()).toEqual({ error: "method not allowed" });
  });
});

describe("verify and settle", () => {
  it.each(["/verify", "/settle"])("answers %s with 200 and the core's body for a valid payload", async (path) => {
    const url = await start();
    const response = await postJson(url, path, SELF_TRANSFER_BODY);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(
      path === "/verify" ? { isValid: true } : { success: true, transaction: TEST_HTTP_BURN_TX, network: "eip155:31337", extra: { phase: "accepted" } },
    );
  });

  it.each(["/verify", "/settle"])("answers %s with 200 for a partial permit triple", async (path) => {
    const url = await start();
    const partial = { challengeNonce: SELF_TRANSFER_BODY.challengeNonce, payer: "0x01" };
    const response = await postJson(url, path, partial);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject(
      path === "/verify" ? { isValid: false, invalidReason: MALFORMED_PAYLOAD } : { success: false, transaction: "", errorReason: MALFORMED_PAYLOAD },
    );
  });

  it.each(["/verify", "/settle"])("answers %s with 200 for an empty body", async (path) => {
    const url = await start();
    const response = await fetch(`${url}${path}`, { method: "POST" });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain(MALFORMED_PAYLOAD);
  });
});

describe("profiles", () => {
  it("answers /challenge with 403 and the spec's message under a non-local profile", async () => {
    const url = await start({ profile: "testnet" });
    const response = await postJson(url, "/challenge", { amount: "1000" });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: expect.stringMatching(/^payment acceptance is disabled for profile testnet/),
    });
  });

  it("answers verify and settle with 200 and profile_unsupported under a non-local profile", async () => {
    const url = await start({ profile: "production" });
    const verify = await postJson(url, "/verify", SELF_TRANSFER_BODY);
    expect(verify.status).toBe(200);
    expect(await verify.json()).toEqual({ isValid: false, invalidReason: PROFILE_UNSUPPORTED });
    const settle = await postJson(url, "/settle", SELF_TRANSFER_BODY);
    expect(settle.status).toBe(200);
    expect(await settle.json()).toMatchObject({ success: false, errorReason: PROFILE_UNSUPPORTED });
    const supported = await fetch(`${url}/supported`);
    expect(await supported.json()).toMatchObject({ kinds: [] });
  });
});

describe("error mapping", () => {
  it.each([
    [503, new ChallengeCapacityError(1000)],
    [503, new BurnAddressUnavailableError()],
    [400, new QuoteOutOfRangeError({ reason: "the quoted amount exceeds 2^248 - 1" })],
  ])("answers %i for %s", async (status, error) => {
    const url = await start({ issueChallenge: () => Promise.reject(error) });
    const response = await postJson(url, "/challenge", { amount: "1" });
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error: error.shortMessage });
  });

  it("answers 500 with a generic body for an unexpected error and logs it without the request body", async () => {
    const { logger, lines } = buildMemoryLogger();
    const url = await start({
      logger,
      verify: () => Promise.reject(new Error(`rpc failed for token ${TEST_HTTP_ADMIN_TOKEN}`)),
    });
    const marker = "request-body-marker-1234";
    const response = await postJson(url, "/verify", { ...SELF_TRANSFER_BODY, marker, burnAuthSig: SIGNATURE });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: "internal error" });
    expect(text).not.toContain(TEST_HTTP_ADMIN_TOKEN);
    expect(lines).toHaveLength(1);
    const line = lines[0] ?? "";
    expect(JSON.parse(line)).toMatchObject({
      level: "error",
      event: "http_error",
      method: "POST",
      path: "/verify",
      status: 500,
    });
    expect(line).not.toContain(marker);
    expect(line).not.toContain(SIGNATURE.slice(2));
    expect(line).not.toContain(TEST_HTTP_ADMIN_TOKEN);
  });

  it("does not log expected refusals", async () => {
    const { logger, lines } = buildMemoryLogger();
    const url = await start({ logger, profile: "testnet" });
    await postJson(url, "/challenge", { amount: "1" });
    await postJson(url, "/challenge", "{");
    expect(lines).toEqual([]);
  });
});

describe("request bodies", () => {
  it("answers 400 without echoing the body for malformed JSON", async () => {
    const url = await start();
    const marker = "malformed-marker-5678";
    const response = await postJson(url, "/settle", `{"burnAuthSig":"${SIGNATURE}","x":"${marker}"`);
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: "request body is not valid JSON" });
    expect(text).not.toContain(marker);
    expect(text).not.toContain(SIGNATURE.slice(2, 40));
  });

  it.each(['"just a string"', "42", '{"__proto__":{"x":1}}'])("answers 400 for the body %s", async (body) => {
    const url = await start();
    const response = await postJson(url, "/verify", body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "request body is not valid JSON" });
  });

  it("answers 413 for a body over 64 KiB", async () => {
    const url = await start();
    const padding = "a".repeat(MAX_REQUEST_BODY_BYTES + 1024);
    const response = await postJson(url, "/settle", { ...SELF_TRANSFER_BODY, padding });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: `request body exceeds ${MAX_REQUEST_BODY_BYTES} bytes` });
  });

  it("answers 413 for a chunked body over 64 KiB that declares no length", async () => {
    const url = await start();
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const headers = { "content-type": "application/json" };
      const outgoing = request(`${url}/verify`, { method: "POST", headers }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      outgoing.on("error", reject);
      outgoing.write('{"padding":"');
      for (let i = 0; i < 66; i += 1) outgoing.write("b".repeat(1024));
      outgoing.end('"}');
    });
    expect(status).toBe(413);
    expect(JSON.parse(body)).toEqual({ error: `request body exceeds ${MAX_REQUEST_BODY_BYTES} bytes` });
  });

  it("accepts a body just under the limit", async () => {
    const url = await start();
    const padding = "a".repeat(MAX_REQUEST_BODY_BYTES - 200);
    const response = await postJson(url, "/verify", { ...SELF_TRANSFER_BODY, padding });
    expect(response.status).toBe(200);
  });

  it("answers 415 for an unknown Content-Encoding and 400 for a corrupt gzip body", async () => {
    const url = await start();
    const unknown = await postJson(url, "/verify", "{}", { "content-encoding": "compress" });
    expect(unknown.status).toBe(415);
    const corrupt = await postJson(url, "/verify", "not gzip at all", { "content-encoding": "gzip" });
    expect(corrupt.status).toBe(400);
    expect(await corrupt.json()).toEqual({ error: "request body could not be read" });
  });
});

describe("createApp", () => {
  it("refuses trusted proxies the proxy trust setting cannot compile, without quoting them", () => {
    const deps = buildAppDependencies({ listen: { trusted_proxies: ["proxy.internal"] } });
    expect(() => createApp(deps)).toThrow(TrustedProxiesError);
    expect(() => createApp(deps)).toThrow(expect.objectContaining({ message: expect.not.stringContaining("proxy.internal") }));
  });
});
