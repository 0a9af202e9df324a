import { describe, expect, it } from "vitest";

import { createIdentityTokens } from "./identityToken.js";
import { TEST_BINDINGS } from "../testing/historyTestEnvironment.js";
import { createWalletLogin } from "./walletLogin.js";

describe("createWalletLogin", () => {
  it("refuses new challenges at capacity until pending ones expire", () => {
    let nowMs = 1_900_000_000_000;
    const now = () => nowMs;
    const login = createWalletLogin({
      domain: "facilitator.test",
      bindings: TEST_BINDINGS,
      wallets: { payer: "0x2222222222222222222222222222222222222222", provider: undefined },
      tokens: createIdentityTokens({ secret: "x".repeat(32), issuer: "facilitator.test", now }),
      now,
      capacity: 3,
    });
    for (let i = 0; i < 3; i++) expect(login.challenge("payer").ok).toBe(true);
    expect(login.challenge("payer")).toEqual({ ok: false, refusal: "capacity", message: "too many pending history login challenges" });
    nowMs += 300_000;
    expect(login.challenge("payer").ok).toBe(true);
  });
});
