import { describe, expect, it } from "vitest";
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
