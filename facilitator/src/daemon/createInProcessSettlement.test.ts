/**
 * The daemon's in-process boundary: answers pass through unchanged, an unexpected error is logged (redacted)
 * and handed on as a named error that quotes nothing, and a closed boundary refuses new calls while the ones
 * running finish.
 */
import type { ClassifiedFacilitatorBody, SettleResponse, VerifyResponse } from "@svc/scheme";
import { describe, expect, it } from "vitest";
import { createLogger } from "../log/createLogger.js";
import { createInProcessSettlement } from "./createInProcessSettlement.js";
import { InProcessSettlementFailedError, InProcessSettlementStoppedError } from "./errors.js";

const RPC_URL = "https://rpc.example/v2/secret-api-key-0123456789";
const body: ClassifiedFacilitatorBody = { kind: "rejected", reason: "malformed_payload", detail: "test" };
const refused: SettleResponse = { success: false, errorReason: "malformed_payload", transaction: "", network: "eip155:31337" };

function build(settlement: {
  verify: (body: ClassifiedFacilitatorBody) => Promise<VerifyResponse>;
  settle: (body: ClassifiedFacilitatorBody) => Promise<SettleResponse>;
}) {
  const lines: string[] = [];
  const logger = createLogger({ write: (line) => lines.push(line), urls: [RPC_URL] });
  return { lines, handle: createInProcessSettlement({ network: "eip155:31337", acceptsPayments: true, settlement, logger }) };
}

describe("createInProcessSettlement", () => {
  it("hands the settlement's answers on unchanged", async () => {
    const { handle } = build({ verify: async () => ({ isValid: false, invalidReason: "malformed_payload" }), settle: async () => refused });
    expect(await handle.settlement.verify(body)).toEqual({ isValid: false, invalidReason: "malformed_payload" });
    expect(await handle.settlement.settle(body)).toEqual(refused);
    expect(handle.settlement).toMatchObject({ network: "eip155:31337", acceptsPayments: true });
  });

  it("logs an unexpected error redacted and throws a named error without its message or cause", async () => {
    const failing = async (): Promise<never> => {
      throw new TypeError(`request to ${RPC_URL} failed`);
    };
    const { handle, lines } = build({ verify: failing, settle: failing });
    const error = await handle.settlement.settle(body).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InProcessSettlementFailedError);
    expect(error).toMatchObject({ operation: "settle" });
    expect(error instanceof Error ? error.cause : "not an error").toBeUndefined();
    expect(String(error)).toMatchInlineSnapshot(
      `"InProcessSettlementFailedError: svc-zerc20 settle failed: internal error (logged by the facilitator daemon as in_process_error)"`,
    );
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ level: "error", event: "in_process_error", operation: "settle", error: "TypeError" });
    expect(lines[0]).not.toContain("secret-api-key");
  });

  it("refuses calls once closed, and lists the calls still running until they end", async () => {
    let release: (answer: SettleResponse) => void = () => undefined;
    const slow = new Promise<SettleResponse>((resolve) => {
      release = resolve;
    });
    const { handle } = build({ verify: async () => ({ isValid: true }), settle: () => slow });
    const running = handle.settlement.settle(body);
    expect(handle.inflight()).toHaveLength(1);
    handle.close();
    const error = await handle.settlement.verify(body).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InProcessSettlementStoppedError);
    release(refused);
    expect(await running).toEqual(refused);
    await Promise.all(handle.inflight());
    expect(handle.inflight()).toHaveLength(0);
  });
});
