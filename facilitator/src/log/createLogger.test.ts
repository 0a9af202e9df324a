import { HttpRequestError } from "viem";
import { describe, expect, it } from "vitest";
import { errorLogFields } from "../http/errorLogFields.js";
import { createLogger } from "./createLogger.js";
import { REDACTED } from "./redact.js";

const capture = (secrets: readonly string[] = []) => {
  const lines: string[] = [];
  const logger = createLogger({ write: (line) => lines.push(line), secrets, now: () => new Date("2026-01-02T03:04:05Z") });
  return { logger, lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
};

describe("createLogger", () => {
  it("writes one JSON line per event with ts, level and event first", () => {
    const { logger, lines, parsed } = capture();
    logger.info("started", { listen: "127.0.0.1:4032", chain_id: 31337, amount: 10n });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.endsWith("\n")).toBe(true);
    expect(Object.keys(parsed()[0] ?? {}).slice(0, 3)).toEqual(["ts", "level", "event"]);
    expect(parsed()[0]).toEqual({ ts: "2026-01-02T03:04:05.000Z", level: "info", event: "started", listen: "127.0.0.1:4032", chain_id: 31337, amount: "10" });
  });

  it("redacts known secrets in any case, with or without 0x, inside any field", () => {
    const key = `0x${"ab12".repeat(16)}`;
    const token = "local-admin-token-value";
    const { logger, lines } = capture([key, token]);
    logger.error("oops", { message: `failed with ${key.toUpperCase().replace("0X", "0x")} and ${key.slice(2)}`, auth: `Bearer ${token}` });
    expect(lines[0]).not.toMatch(/ab12ab12/i);
    expect(lines[0]).not.toContain(token);
    expect(lines[0]?.split(REDACTED).length).toBe(4);
  });

  it("redacts signature-grade hex but keeps transaction hashes and nonces", () => {
    const signature = `0x${"1f".repeat(65)}`;
    const txHash = `0x${"2e".repeat(32)}`;
    const { logger, parsed } = capture();
    logger.warn("settle_failed", { signature, burn_tx: txHash });
    expect(parsed()[0]).toMatchObject({ signature: REDACTED, burn_tx: txHash });
  });
});

describe("createLogger levels and pretty format", () => {
  it("writes only events at or above the configured level", () => {
    const lines: string[] = [];
    const logger = createLogger({ write: (line) => lines.push(line), level: "warn" });
    logger.debug("finalize_waiting");
    logger.info("journal_restored");
    logger.warn("development_key");
    logger.error("http_error");
    expect(lines.map((line) => (JSON.parse(line) as { event: string }).event)).toEqual(["development_key", "http_error"]);
  });

  it("renders a readable line from the redacted record", () => {
    const secret = "pretty-secret-token-value-0123";
    const lines: string[] = [];
    const logger = createLogger({ write: (line) => lines.push(line), secrets: [secret], format: "pretty", now: () => new Date("2026-01-02T03:04:05.678Z") });
    logger.info("started", { listen: "127.0.0.1:4032", chain_id: 31337, note: `with ${secret} inside` });
    expect(lines).toEqual(['03:04:05.678 INFO  started listen=127.0.0.1:4032 chain_id=31337 note="with [redacted] inside"\n']);
  });
});

describe("createLogger with configured URLs", () => {
  const key = "Zk4q7Lm2Pp9Xc3Vb8Nn1Rr6Tt0Yy5Ww";
  const rpcUrl = `https://rpc.example/v3/${key}?apikey=${key}`;
  const indexerUrl = "https://indexer.example/api?access=idx-secret-value";

  const lines: string[] = [];
  const logger = createLogger({ write: (line) => lines.push(line), urls: [rpcUrl, indexerUrl, "http://127.0.0.1:4000"] });

  it("redacts the RPC URL inside a viem error message on the http_error line", () => {
    const error = new HttpRequestError({ url: rpcUrl, status: 503, body: { method: "eth_call" }, details: "Service Unavailable" });
    expect(error.message).toContain(key);
    logger.error("http_error", { status: 500, ...errorLogFields(error) });
    const line = lines.at(-1) ?? "";
    expect(line).not.toContain(key);
    expect(line).toContain("https://rpc.example/v3/***?apikey=***");
  });

  it("redacts a configured URL's credential parts when they appear without the URL", () => {
    logger.warn("odd", { path: `/v3/${key.toLowerCase()}`, query: "idx-secret-value", other: "http://127.0.0.1:4000/health" });
    const line = lines.at(-1) ?? "";
    expect(line).not.toMatch(new RegExp(key, "i"));
    expect(line).not.toContain("idx-secret-value");
    expect(JSON.parse(line)).toMatchObject({ other: "http://127.0.0.1:4000/health" });
  });

  it("redacts any other URL that carries credentials", () => {
    logger.info("odd", { url: "https://user:hunter2hunter2@elsewhere.example/x" });
    expect(lines.at(-1)).not.toContain("hunter2");
  });
});

describe("errorLogFields", () => {
  it("drops a URL the length bound would cut in half, so no partial key reaches the line", () => {
    const key = "Zk4q7Lm2Pp9Xc3Vb8Nn1Rr6Tt0Yy5Ww";
    const error = new Error(`${"x".repeat(480)} https://rpc.example/v3/${key}`);
    const { message } = errorLogFields(error);
    expect(message).not.toContain(key.slice(0, 4));
    expect(message.endsWith(" …")).toBe(true);
  });
});
