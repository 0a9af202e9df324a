import { describe, expect, it } from "vitest";

import * as reasons from "./reasonCodes.js";
import { isReasonCode, REASON_CODES } from "./reasonCodes.js";

describe("reason codes", () => {
  it("are pinned: a code is never renamed or removed", () => {
    expect(REASON_CODES).toEqual([
      "profile_unsupported",
      "pending_burn",
      "malformed_payload",
      "unknown_challenge",
      "challenge_expired",
      "requirements_mismatch",
      "invalid_permit_signature",
      "invalid_burn_authorization",
      "stale_permit_nonce",
      "deadline_passed",
      "permit_value_mismatch",
      "insufficient_balance",
      "burn_receipt_missing",
      "burn_reverted",
      "transfer_below_amount",
      "burn_after_expiry",
      "burn_tx_reused",
      "payload_conflict",
      "unsupported_scheme",
      "unsupported_network",
      "permit_path_unavailable",
      "burn_balance_missing",
      "chain_unavailable",
      "intent_not_recorded",
      "relay_failed",
      "storage_unavailable",
    ]);
  });

  it("are unique snake_case strings", () => {
    expect(new Set(REASON_CODES).size).toBe(REASON_CODES.length);
    for (const code of REASON_CODES) expect(code).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
  });

  it("each have a constant named after the code, and every constant is listed", () => {
    const constants = Object.entries(reasons).filter(([name]) => /^[A-Z_]+$/.test(name) && name !== "REASON_CODES");
    expect(constants.map(([name, value]) => [name.toLowerCase(), value])).toEqual(constants.map(([name]) => [name.toLowerCase(), name.toLowerCase()]));
    expect(constants.map(([, value]) => value).sort()).toEqual([...REASON_CODES].sort());
  });

  it("isReasonCode tells ours from anything else", () => {
    expect(isReasonCode("pending_burn")).toBe(true);
    expect(isReasonCode("invalid_exact_evm_payload_signature")).toBe(false);
  });
});
