import { mkdir, writeFile } from "node:fs/promises";

import { encodePaymentRequiredHeader } from "@svc/scheme";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";

import { approvalPaths, ApprovalRequestSchema } from "../approvals/approvalFiles.js";
import { Ledger } from "../ledger/ledger.js";
import { buildApprovalRequest } from "../testing/buildApprovalRequest.js";
import { buildPaymentRequired, buildRequirements } from "@svc/scheme/testing";
import { buildReserveInput } from "../testing/buildReserveInput.js";
import { runCliInProcess } from "../testing/runCliInProcess.js";
import { startTestServer, type TestServer } from "../testing/startTestServer.js";
import { makeTempDir } from "../testing/tempDir.js";
import { EXIT_APPROVAL_DENIED, EXIT_DECLINED, EXIT_FAILED, EXIT_HTTP_ERROR, EXIT_INTERRUPTED, EXIT_OK, EXIT_UNKNOWN, EXIT_USAGE } from "./exitCodes.js";

const KEY = "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
let provider: TestServer;
beforeEach(async () => {
  dir = await makeTempDir();
  provider = await startTestServer((request, response) => {
    if (request.url?.startsWith("/history/") === true) {
      response.statusCode = 404;
      response.end('{"error":"not found"}');
      return;
    }
    if (request.url === "/free") {
      response.end("free content");
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

const env = (extra: Record<string, string> = {}) => ({ SVC_STATE_DIR: dir.path, SVC_RPC_URL: "http://127.0.0.1:9/", SVC_TIMEOUT_MS: "2000", ...extra });

describe("exit codes", () => {
  it("keeps the documented values", () => {
    expect([EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_DECLINED, EXIT_APPROVAL_DENIED, EXIT_UNKNOWN, EXIT_HTTP_ERROR, EXIT_INTERRUPTED]).toEqual([
      0, 1, 2, 3, 4, 5, 6, 130,
    ]);
  });

  it.each([[[]], [["frobnicate"]], [["pay"]], [["pay", "not a url"]], [["pay", "ftp://127.0.0.1/x"]], [["resend"]]])(
    "%j is a usage mistake (2)",
    async (argv) => {
      expect((await runCliInProcess(argv, env())).code).toBe(EXIT_USAGE);
    },
  );

  it("rejects a malformed variable at load with 2, naming it and never its value", async () => {
    const run = await runCliInProcess(["pay", `${provider.origin}/weather`], env({ SVC_PAYER_PK: "0xdeadbeefdeadbeefdeadbeef" }));
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr).toContain("SVC_PAYER_PK is malformed");
    expect(run.stderr).not.toContain("deadbeef");
    expect(provider.requests).toEqual([]);
  });

  it("needs SVC_PAYER_PK to pay (2) but not to quote", async () => {
    const pay = await runCliInProcess(["pay", "--json", `${provider.origin}/weather`], env());
    expect(pay.code).toBe(EXIT_USAGE);
    expect(JSON.parse(pay.stdout)).toMatchObject({ result: "error", error: "PayerKeyMissingError" });
    // Refused before the offer is even asked for: every 402 spends one of the facilitator's burn addresses.
    expect(provider.requests).toEqual([]);
    const quote = await runCliInProcess(["quote", `${provider.origin}/weather`], env());
    expect(quote.code).toBe(EXIT_OK);
    expect(quote.stdout).toContain("amount   1010 base units");
    expect(quote.stdout).toContain("policy   allowed");
  });
});

describe("pay and quote against a local 402 server", () => {
  it("refuses a host off the allowlist before any request leaves (3)", async () => {
    const run = await runCliInProcess(
      ["pay", "--json", `http://localhost:${provider.port}/weather`],
      env({ SVC_PAYER_PK: KEY, SVC_ALLOWED_HOSTS: "127.0.0.1" }),
    );
    expect(run.code).toBe(EXIT_DECLINED);
    expect(run.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ result: "declined", reason: "host_not_allowed" });
    expect(provider.requests).toEqual([]);
  });

  it("quotes with the policy's verdict as one JSON line and exits 3 when it would decline", async () => {
    const run = await runCliInProcess(["quote", "--json", `${provider.origin}/weather`], env({ SVC_MAX_TOTAL: "1000base" }));
    expect(run.code).toBe(EXIT_DECLINED);
    expect(JSON.parse(run.stdout)).toMatchObject({
      result: "offer",
      offer: { amount: "1010" },
      token: null,
      mode: "permit",
      policy: { kind: "declined", reason: "above_max_total", spent: "0", cap: "1000" },
    });
  });

  it("declines above SVC_MAX_PER_PAYMENT (3) without writing the ledger", async () => {
    const run = await runCliInProcess(["pay", `${provider.origin}/weather`], env({ SVC_PAYER_PK: KEY, SVC_MAX_PER_PAYMENT: "1009base" }));
    expect(run.code).toBe(EXIT_DECLINED);
    expect(run.stderr).toContain("declined by policy (above_max_per_payment)");
    expect((await runCliInProcess(["ledger", "--json"], env())).stdout).toBe("");
  });

  it("prints a resource that needs no payment (0)", async () => {
    const run = await runCliInProcess(["pay", `${provider.origin}/free`], env({ SVC_PAYER_PK: KEY }));
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toBe("free content\n");
  });

  it("fails (1) when the provider cannot be reached, and says so in --json", async () => {
    await provider.close();
    const run = await runCliInProcess(["pay", "--json", `${provider.origin}/weather`], env({ SVC_PAYER_PK: KEY }));
    expect(run.code).toBe(EXIT_FAILED);
    expect(JSON.parse(run.stdout)).toMatchObject({ result: "error", error: "HttpRequestFailedError" });
  });
});

describe("ledger and approvals", () => {
  it("start empty", async () => {
    expect(await runCliInProcess(["ledger"], env())).toMatchObject({ code: 0, stdout: expect.stringContaining("no spend yet") });
    expect(await runCliInProcess(["approvals"], env())).toMatchObject({ code: 0, stdout: "no pending approvals\n" });
    expect((await runCliInProcess(["approvals", "approve", "0123456789ab"], env())).code).toBe(EXIT_USAGE);
  });
});

describe("payment ids", () => {
  const historyEnv = () => env({ SVC_PAYER_PK: KEY, SVC_FACILITATOR_URL: provider.origin });
  const nonce = `0x${"ab".repeat(32)}` as const;

  it.each([
    [["resend", "45456067e4a"]],
    [["resend", "0123456789ab"]],
    [["resend", nonce]],
    [["approvals", "deny", "not-an-id"]],
    [["proof", "45456067e4a3", "--out", "proof", "--trust-anchor", "anchor.json"]],
    [["proof", "0x1234", "--out", "proof", "--trust-anchor", "anchor.json"]],
  ])("%j is a usage mistake (2): malformed, or naming no payment", async (argv) => {
    const run = await runCliInProcess(argv, historyEnv());
    expect(run.code, run.stderr).toBe(EXIT_USAGE);
    expect(provider.requests).toEqual([]);
  });

  it("resend finds a payment by either id; proof checks its trust anchor before asking the facilitator", async () => {
    const ledger = new Ledger(dir.path);
    const reserved = await ledger.reserve(buildReserveInput({ challengeNonce: nonce }), {});
    if (reserved.kind !== "reserved") throw new Error("not reserved");
    for (const id of [reserved.entry.id, nonce, nonce.toUpperCase().replace("0X", "0x")]) {
      const run = await runCliInProcess(["resend", id], historyEnv());
      expect(run.code).toBe(EXIT_FAILED);
      expect(run.stderr).toContain(`Payment ${reserved.entry.id} is reserved; only a signed payment of unknown outcome can be re-sent.`);
    }
    const proof = await runCliInProcess(["proof", reserved.entry.id, "--out", `${dir.path}/proof`, "--trust-anchor", `${dir.path}/missing.json`], historyEnv());
    expect(proof.code).toBe(EXIT_USAGE);
    expect(proof.stderr).toContain("missing.json cannot be read (ENOENT); nothing was requested");
    expect(provider.requests).toEqual([]);
  });
});

describe("approvals --json", () => {
  it("gives every time as ISO 8601, never a mix of seconds, milliseconds and strings", async () => {
    const request = buildApprovalRequest({
      decideBy: Date.UTC(2030, 0, 1, 0, 2),
      offerExpiresAt: Date.UTC(2030, 0, 1, 0, 5) / 1000,
      createdAt: "2030-01-01T00:00:00.000Z",
    });
    const paths = approvalPaths(dir.path, request.id);
    await mkdir(paths.dir, { recursive: true });
    await writeFile(paths.request, JSON.stringify(z.encode(ApprovalRequestSchema, request)));
    const run = await runCliInProcess(["approvals", "--json"], env());
    expect(JSON.parse(run.stdout)).toMatchObject({
      id: request.id,
      amount: "1010",
      createdAt: "2030-01-01T00:00:00.000Z",
      decideBy: "2030-01-01T00:02:00.000Z",
      offerExpiresAt: "2030-01-01T00:05:00.000Z",
    });
    const text = await runCliInProcess(["approvals"], env());
    expect(text.stdout).toContain(`${request.id}  1010 base units to 127.0.0.1:4021 (above 1000 base units)`);
  });
});

describe("history", () => {
  it("says when the facilitator has payment history turned off (1), not a bare HTTP 404", async () => {
    const run = await runCliInProcess(["history"], env({ SVC_PAYER_PK: KEY, SVC_FACILITATOR_URL: provider.origin }));
    expect(run.code).toBe(EXIT_FAILED);
    expect(run.stderr).toContain("This facilitator has payment history turned off");
  });
});

describe("help", () => {
  it("names option values instead of clipanion's `#0`, and the command a user can type", async () => {
    const run = await runCliInProcess(["proof", "--help"], env());
    expect(run.stdout).toContain("--out <dir>");
    expect(run.stdout).toContain("--trust-anchor <file>");
    const mistake = await runCliInProcess(["proof", "verify", "--proof", "p.json"], env());
    expect(mistake.code).toBe(EXIT_USAGE);
    expect(mistake.stderr).toContain("$ svc-agent proof verify --proof <file> --manifest <file> --trust-anchor <file>");
    expect(mistake.stderr).not.toMatch(/<--[a-z-]+ </);
    for (const text of [run.stdout, mistake.stderr]) expect(text).not.toContain("#0");
  });

  it.each([["pay", "--help"], ["approvals", "approve", "--help"], ["--help"]])("`%s %s` prints usage and exits 0", async (...args) => {
    const run = await runCliInProcess(
      args.filter((arg): arg is string => typeof arg === "string"),
      env(),
    );
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toMatch(/Usage|svc-agent/);
  });
});
