/**
 * The exit codes scripts rely on, from the built CLI as a real process against a loopback server standing
 * in for a provider (no chain needed: nothing here gets as far as signing): an HTTP error is not a free
 * resource, Ctrl-C while a human is asked exits 130, and an approval given after its deadline is refused.
 */
import { encodePaymentRequiredHeader } from "@svc/scheme";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { buildPaymentRequired, buildRequirements } from "@svc/scheme/testing";
import {
  EXIT_APPROVAL_DENIED,
  EXIT_FAILED,
  EXIT_HTTP_ERROR,
  EXIT_INTERRUPTED,
  EXIT_USAGE,
  makeTempDir,
  runAgent,
  startAgent,
  startTestServer,
  type TestServer,
} from "@svc/agent/testing";

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
    response.setHeader("PAYMENT-REQUIRED", encodePaymentRequiredHeader(buildPaymentRequired({ accepts: [buildRequirements({ amount: "1010" })] })));
    response.end("{}");
  });
});
afterEach(async () => {
  await provider.close();
  await dir.remove();
});

const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? "",
  SVC_STATE_DIR: dir.path,
  SVC_RPC_URL: "http://127.0.0.1:9/",
  SVC_TIMEOUT_MS: "2000",
  ...extra,
});

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
    // Text mode relays the provider's explanation, not only --json.
    expect(text.stderr).toContain(`the provider says: ${path === "/missing" ? "no such page" : "facilitator unreachable"}`);
    const quote = await runAgent(["quote", "--json", `${provider.origin}${path}`], env());
    expect(quote.code).toBe(EXIT_HTTP_ERROR);
    expect(JSON.parse(quote.stdout)).toMatchObject({ result: "http_error", status });
  });
});

const NEEDS_APPROVAL = /^payment ([0-9a-f]{12}) needs approval/;

describe("a payment waiting for a human", () => {
  it("exits 130 on Ctrl-C, withdrawing the request", async () => {
    const agent = startAgent(["pay", "--json", `${provider.origin}/weather`], env({ SVC_PAYER_PK: KEY, SVC_APPROVE_ABOVE: "0" }));
    const [, id = ""] = await agent.waitForStderr(NEEDS_APPROVAL);
    // The hint names the command as a user types it after the README's set-up.
    expect(agent.stderr.join("\n")).toContain(`run \`svc-agent approvals approve ${id}\``);
    agent.kill("SIGINT");
    expect(await agent.exited).toBe(EXIT_INTERRUPTED);
    expect(JSON.parse(agent.stdout.join(""))).toMatchObject({ result: "error", error: "ApprovalInterruptedError" });
    expect((await runAgent(["approvals", "approve", id], env())).code).toBe(EXIT_FAILED);
  });

  it("refuses an approval given after the deadline with a clear message (1); the agent declined with 4", async () => {
    const agent = startAgent(
      ["pay", "--json", `${provider.origin}/weather`],
      env({ SVC_PAYER_PK: KEY, SVC_APPROVE_ABOVE: "0", SVC_APPROVAL_TIMEOUT_MS: "800" }),
    );
    const [, id = ""] = await agent.waitForStderr(NEEDS_APPROVAL);
    expect(await agent.exited).toBe(EXIT_APPROVAL_DENIED);
    const late = await runAgent(["approvals", "approve", id], env());
    expect(late.code).toBe(EXIT_FAILED);
    expect(late.stdout).toBe("");
    expect(late.stderr).toContain(`Payment ${id} is not waiting for approval any more: it is released (no decision within SVC_APPROVAL_TIMEOUT_MS`);
    const typo = await runAgent(["approvals", "approve", "0123456789ab"], env());
    expect(typo.code).toBe(EXIT_USAGE);
  });
});
