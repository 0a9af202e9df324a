import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { PolicyConfigError } from "./errors.js";
import { loadPolicy } from "./loadPolicy.js";

const KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

describe("loadPolicy defaults", () => {
  it("applies every documented default, with no key needed to load", () => {
    expect(loadPolicy({}, { homeDir: "/home/someone" })).toEqual({
      payerKey: undefined,
      rpcUrl: "http://127.0.0.1:8545",
      mode: "permit",
      timeoutMs: 30_000,
      allowedHosts: ["localhost", "127.0.0.1"],
      allowedNetwork: "eip155:31337",
      allowedToken: undefined,
      maxPerPayment: undefined,
      maxTotal: undefined,
      approveAbove: undefined,
      approvalTimeoutMs: 120_000,
      stateDir: join("/home/someone", ".svc-agent"),
    });
  });

  it("treats an empty value as unset, the way shells leave VAR=", () => {
    expect(loadPolicy({ SVC_MODE: "", SVC_MAX_TOTAL: " " }, { homeDir: "/h" })).toMatchObject({ mode: "permit", maxTotal: undefined });
  });
});

describe("loadPolicy values", () => {
  it("reads every variable", () => {
    const policy = loadPolicy({
      SVC_PAYER_PK: KEY,
      SVC_RPC_URL: "https://rpc.example/v1",
      SVC_MODE: "self-transfer",
      SVC_TIMEOUT_MS: "1500",
      SVC_ALLOWED_HOSTS: "Example.COM, 127.0.0.1,[::1]",
      SVC_ALLOWED_NETWORK: "eip155:8453",
      SVC_ALLOWED_TOKEN: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      SVC_MAX_PER_PAYMENT: "0.002",
      SVC_MAX_TOTAL: "5000base",
      SVC_MAX_PER_HOUR: "0.5",
      SVC_MAX_PER_DAY: "1.0",
      SVC_MAX_PER_WEEK: "7000base",
      SVC_MAX_PER_MONTH: "30.0",
      SVC_MAX_PER_HOST: "0.25",
      SVC_MAX_PER_MCP_SESSION: "100base",
      SVC_APPROVE_ABOVE: "0",
      SVC_APPROVAL_TIMEOUT_MS: "10",
      SVC_STATE_DIR: "/tmp/agent-state",
    });
    expect(policy).toEqual({
      payerKey: KEY,
      rpcUrl: "https://rpc.example/v1",
      mode: "self-transfer",
      timeoutMs: 1500,
      allowedHosts: ["example.com", "127.0.0.1", "[::1]"],
      allowedNetwork: "eip155:8453",
      allowedToken: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      maxPerPayment: { unit: "token", text: "0.002" },
      maxTotal: { unit: "base", value: 5000n },
      maxPerHour: { unit: "token", text: "0.5" },
      maxPerDay: { unit: "token", text: "1.0" },
      maxPerWeek: { unit: "base", value: 7000n },
      maxPerMonth: { unit: "token", text: "30.0" },
      maxPerHost: { unit: "token", text: "0.25" },
      maxPerMcpSession: { unit: "base", value: 100n },
      approveAbove: { unit: "base", value: 0n },
      approvalTimeoutMs: 10,
      stateDir: "/tmp/agent-state",
    });
  });

  it("accepts a key without 0x and allows every host with a lone *", () => {
    expect(loadPolicy({ SVC_PAYER_PK: KEY.slice(2), SVC_ALLOWED_HOSTS: "*" })).toMatchObject({ payerKey: KEY, allowedHosts: "*" });
  });
});

describe("loadPolicy rejects malformed values by variable name, never quoting the value", () => {
  it.each([
    ["SVC_PAYER_PK", "0x1234"],
    ["SVC_PAYER_PK", `0x${"00".repeat(32)}`],
    ["SVC_PAYER_PK", `0x${"ff".repeat(32)}`],
    ["SVC_PAYER_PK", `${KEY}zz`],
    ["SVC_RPC_URL", "localhost:8545"],
    ["SVC_RPC_URL", "ws://127.0.0.1:8545"],
    ["SVC_MODE", "gasless"],
    ["SVC_TIMEOUT_MS", "0"],
    ["SVC_TIMEOUT_MS", "-5"],
    ["SVC_TIMEOUT_MS", "1.5"],
    ["SVC_TIMEOUT_MS", "3e4"],
    ["SVC_TIMEOUT_MS", "9999999999"],
    ["SVC_ALLOWED_HOSTS", "http://localhost"],
    ["SVC_ALLOWED_HOSTS", "localhost:8080"],
    ["SVC_ALLOWED_HOSTS", "*.example.com"],
    ["SVC_ALLOWED_HOSTS", "*,localhost"],
    ["SVC_ALLOWED_HOSTS", "localhost,,127.0.0.1"],
    ["SVC_ALLOWED_NETWORK", "31337"],
    ["SVC_ALLOWED_NETWORK", "solana:mainnet"],
    ["SVC_ALLOWED_TOKEN", "0x1234"],
    ["SVC_MAX_PER_PAYMENT", "1."],
    ["SVC_MAX_PER_PAYMENT", ".5"],
    ["SVC_MAX_PER_PAYMENT", "-1"],
    ["SVC_MAX_PER_PAYMENT", "-0.5"],
    ["SVC_MAX_PER_PAYMENT", "1.5.5"],
    ["SVC_MAX_PER_PAYMENT", "0.002 zFIX"],
    ["SVC_MAX_TOTAL", "2000000000000000"],
    ["SVC_MAX_TOTAL", "1base5"],
    ["SVC_MAX_TOTAL", "0.5base"],
    ["SVC_MAX_TOTAL", "007base"],
    ["SVC_MAX_TOTAL", `1${"0".repeat(78)}base`],
    ["SVC_MAX_TOTAL", `0.${"1".repeat(79)}`],
    ["SVC_MAX_TOTAL", "Infinity"],
    ["SVC_MAX_TOTAL", "NaN"],
    ["SVC_MAX_TOTAL", "1e-3"],
    ["SVC_MAX_TOTAL", "1e18"],
    ["SVC_MAX_TOTAL", "007"],
    ["SVC_MAX_TOTAL", "1_000"],
    ["SVC_MAX_PER_HOUR", "5"],
    ["SVC_MAX_PER_DAY", "1e3"],
    ["SVC_MAX_PER_WEEK", "-1.0"],
    ["SVC_MAX_PER_MONTH", "0.5base"],
    ["SVC_MAX_PER_HOST", "ten"],
    ["SVC_MAX_PER_MCP_SESSION", "100"],
    ["SVC_APPROVE_ABOVE", "0x10"],
    ["SVC_APPROVE_ABOVE", "ten"],
    ["SVC_APPROVAL_TIMEOUT_MS", "soon"],
  ])("%s=%s", (variable, value) => {
    let caught: unknown;
    try {
      loadPolicy({ [variable]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PolicyConfigError);
    expect(caught).toMatchObject({ name: "PolicyConfigError", variable });
    const message = String(caught);
    expect(message).toContain(variable);
    if (value.length > 3) expect(message).not.toContain(value);
  });

  it("pins the message a user sees", () => {
    expect(() => loadPolicy({ SVC_MAX_TOTAL: "1e18" })).toThrowErrorMatchingInlineSnapshot(
      `[PolicyConfigError: SVC_MAX_TOTAL is malformed: expected token units with a decimal point (0.002, 10.0), 0, or base units with the \`base\` suffix (2000base); no sign, exponent, separator or leading zero.]`,
    );
  });

  it("refuses a plain integer, which meant base units before limits were in token units, naming both ways out", () => {
    expect(() => loadPolicy({ SVC_MAX_PER_PAYMENT: "2000000000000000" })).toThrowErrorMatchingInlineSnapshot(
      `[PolicyConfigError: SVC_MAX_PER_PAYMENT is malformed: expected token units with a decimal point (0.002, 10.0), 0, or base units with the \`base\` suffix (2000base); no sign, exponent, separator or leading zero. A plain integer is ambiguous: it meant base units in earlier versions; write 10.0 for ten tokens or append \`base\` to keep base units.]`,
    );
  });

  it("reads token units, 0, and base units with the suffix", () => {
    expect(loadPolicy({ SVC_MAX_TOTAL: "0.002", SVC_APPROVE_ABOVE: "0", SVC_MAX_PER_PAYMENT: "0base" })).toMatchObject({
      maxTotal: { unit: "token", text: "0.002" },
      approveAbove: { unit: "base", value: 0n },
      maxPerPayment: { unit: "base", value: 0n },
    });
  });
});
