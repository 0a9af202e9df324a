import { DEADLINE_PASSED, INVALID_PERMIT_SIGNATURE, type Offer, type PermitPayload } from "@svc/scheme";
import type { PublicClient } from "viem";
import { describe, expect, it } from "vitest";
import { checkPermitPayment, PERMIT_RELAY_MARGIN_SECONDS } from "./checkPermitPayment.js";

// The checks below decide before any chain read, so no client is reached: one that throws proves it.
const unreachable = new Proxy(
  {},
  {
    get: () => {
      throw new TypeError("the chain must not be read for this check");
    },
  },
) as PublicClient;

describe("the relay margin before the signed deadline", () => {
  const now = 1_900_000_000;
  const check = (deadline: number) => {
    const challengeNonce = `0x${"01".repeat(32)}` as const;
    const offer: Offer = {
      challengeNonce,
      chainId: 31337,
      asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      amount: 1010n,
      payTo: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
      expiresAt: deadline,
      helper: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
      deadline,
      fee: undefined,
    };
    const payload: PermitPayload = {
      challengeNonce,
      payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      permit: { value: "1010", nonce: "0", deadline: String(deadline), v: 27, r: `0x${"22".repeat(32)}`, s: `0x${"33".repeat(32)}` },
      burnAuthSig: `0x${"44".repeat(64)}1b`,
    };
    return checkPermitPayment({ client: unreachable, offer, payload, tokenName: "Fixture zERC20", now });
  };

  it("refuses a deadline closer than the margin, where a relayed burn would revert", async () => {
    expect(await check(now + PERMIT_RELAY_MARGIN_SECONDS - 1)).toEqual({ ok: false, reason: DEADLINE_PASSED });
    expect(await check(now - 1)).toEqual({ ok: false, reason: DEADLINE_PASSED });
  });

  it("goes on to the signatures at the margin and beyond", async () => {
    expect(await check(now + PERMIT_RELAY_MARGIN_SECONDS)).toEqual({ ok: false, reason: INVALID_PERMIT_SIGNATURE });
  });
});
