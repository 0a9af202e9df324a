import { buildRequirements, TEST_TOKEN } from "@svc/scheme/testing";
import { describe, expect, it } from "vitest";
import { devAccounts } from "../accounts/devAccounts.js";
import { createTestPayer, PermitUnsupportedError } from "./createTestPayer.js";

describe("createTestPayer", () => {
  it("refuses a permit payment on a zerc20-v1 token with PermitUnsupportedError, before touching the chain", async () => {
    // Nothing listens on this port: a refusal that reached the chain would fail differently.
    const payer = createTestPayer({ rpcUrl: "http://127.0.0.1:9", privateKey: devAccounts().payer.privateKey, protocol: "zerc20-v1" });
    const refusal = payer.signPermit(buildRequirements());
    await expect(refusal).rejects.toBeInstanceOf(PermitUnsupportedError);
    await expect(refusal).rejects.toMatchObject({ context: { protocol: "zerc20-v1", token: TEST_TOKEN } });
  });
});
