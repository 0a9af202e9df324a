import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from "@svc/scheme";
import { describe, expect, it } from "vitest";

import { buildPaymentRequired } from "@svc/scheme/testing";
import { classifyPaidResponse } from "./classifyPaidResponse.js";

const BURN = `0x${"ab".repeat(32)}` as const;

function settleHeader(success: boolean, errorReason?: string): Headers {
  return new Headers({
    "PAYMENT-RESPONSE": encodePaymentResponseHeader({
      success,
      transaction: success ? BURN : "",
      network: "eip155:31337",
      ...(errorReason === undefined ? {} : { errorReason }),
      ...(success ? { extra: { phase: "accepted" } } : {}),
    }),
  });
}

describe("classifyPaidResponse", () => {
  it("calls a successful PAYMENT-RESPONSE paid", () => {
    expect(classifyPaidResponse({ status: 200, headers: settleHeader(true) })).toMatchObject({ kind: "paid", settle: { transaction: BURN } });
  });

  it.each(["requirements_mismatch", "stale_permit_nonce", "burn_after_expiry", "relay_failed"])("calls the reason code %s a refusal and shows it", (reason) => {
    expect(classifyPaidResponse({ status: 402, headers: settleHeader(false, reason) })).toEqual({
      kind: "refused",
      errorReason: reason,
      message: `the payment was refused: ${reason}`,
    });
  });

  it.each(["pending_burn", "chain_unavailable", "storage_unavailable", "Facilitator settle timed out"])(
    "leaves %s unknown: the burn may still land",
    (reason) => {
      expect(classifyPaidResponse({ status: 402, headers: settleHeader(false, reason) })).toMatchObject({ kind: "unknown", errorReason: reason });
    },
  );

  it("calls a 402 without PAYMENT-RESPONSE a refusal before settling, quoting the 402's error", () => {
    const headers = new Headers({ "PAYMENT-REQUIRED": encodePaymentRequiredHeader({ ...buildPaymentRequired(), error: "No matching payment requirements" }) });
    expect(classifyPaidResponse({ status: 402, headers })).toEqual({
      kind: "refused",
      errorReason: "No matching payment requirements",
      message: "the provider refused the payment before settling: No matching payment requirements",
    });
  });

  it("calls a 500 a refusal (the handler failed, nothing settled) and anything else unknown", () => {
    expect(classifyPaidResponse({ status: 500, headers: new Headers() }).kind).toBe("refused");
    expect(classifyPaidResponse({ status: 200, headers: new Headers() }).kind).toBe("unknown");
    expect(classifyPaidResponse({ status: 502, headers: new Headers() }).kind).toBe("unknown");
    expect(classifyPaidResponse({ status: 200, headers: new Headers({ "PAYMENT-RESPONSE": "!!" }) }).kind).toBe("unknown");
  });
});
