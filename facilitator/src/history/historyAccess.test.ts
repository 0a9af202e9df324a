import { describe, expect, it } from "vitest";

import type { PaymentHistoryEntry } from "./record/paymentHistoryBook.js";
import { hasTenantGrant, isBoundParticipant } from "./participantAccess.js";
import { projectPayment } from "./record/projectPayment.js";
import { TEST_BINDINGS, TEST_MINT_TX, TEST_RECIPIENT } from "./testing/historyTestEnvironment.js";

function entry(overrides: Partial<PaymentHistoryEntry> = {}): PaymentHistoryEntry {
  return {
    v: 1,
    type: "intent",
    paymentId: `0x${"c1".repeat(32)}`,
    at: 100,
    path: "permit",
    network: "eip155:31337",
    asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    payTo: "0x1111111111111111111111111111111111111111",
    amount: "1000",
    payer: "0x2222222222222222222222222222222222222222",
    recipient: TEST_RECIPIENT,
    bindings: { payer: { ...TEST_BINDINGS.payer }, provider: { ...TEST_BINDINGS.provider } },
    salt: "ab".repeat(32),
    state: "finalized",
    acceptedAt: 110,
    burnTxHash: `0x${"b0".repeat(32)}`,
    finalizedAt: 200,
    mintTxHash: TEST_MINT_TX,
    ...overrides,
  };
}

const payer = { subject: "payer" as const, ...TEST_BINDINGS.payer };
const provider = { subject: "provider" as const, ...TEST_BINDINGS.provider };

describe("authorization and binding are separate checks", () => {
  it("grants by tenant per role, independently of any record", () => {
    expect(hasTenantGrant(payer, TEST_BINDINGS)).toBe(true);
    expect(hasTenantGrant({ ...payer, actorId: "someone-else" }, TEST_BINDINGS)).toBe(true);
    expect(hasTenantGrant({ ...payer, tenantId: "tenant-provider" }, TEST_BINDINGS)).toBe(false);
    expect(hasTenantGrant({ ...provider, subject: "payer" }, TEST_BINDINGS)).toBe(false);
  });

  it("binds by role, tenant and actor, and fails closed", () => {
    expect(isBoundParticipant(payer, entry())).toBe(true);
    expect(isBoundParticipant(provider, entry())).toBe(true);
    // An unrelated actor of a granted tenant.
    expect(isBoundParticipant({ ...payer, actorId: "agent-2" }, entry())).toBe(false);
    // A subject mismatch: the payer's identity asking as provider.
    expect(isBoundParticipant({ ...payer, subject: "provider" }, entry())).toBe(false);
    // A record lacking the binding for the role.
    expect(isBoundParticipant(payer, entry({ bindings: { provider: { ...TEST_BINDINGS.provider } } }))).toBe(false);
    expect(isBoundParticipant(provider, entry({ bindings: {} }))).toBe(false);
  });
});

describe("projectPayment", () => {
  it("gives the payer no settlement linkage, whatever the provider switch says", () => {
    for (const providerSettlementEvidence of [false, true]) {
      const view = projectPayment(entry(), "payer", { providerSettlementEvidence });
      const text = JSON.stringify(view).toLowerCase();
      expect(text).not.toContain(TEST_RECIPIENT);
      expect(text).not.toContain(TEST_MINT_TX);
      expect(text).not.toContain("0x1111111111111111111111111111111111111111");
      expect(text).not.toContain("ab".repeat(32));
      expect(Object.keys(view).sort()).toEqual([
        "acceptedAt",
        "amount",
        "asset",
        "burnTxHash",
        "finalizedAt",
        "intentAt",
        "network",
        "path",
        "payer",
        "paymentId",
        "state",
      ]);
    }
  });

  it("adds payTo, recipient and mintTxHash for the provider only with the switch on", () => {
    expect(projectPayment(entry(), "provider", { providerSettlementEvidence: false }).settlementEvidence).toBeUndefined();
    expect(projectPayment(entry(), "provider", { providerSettlementEvidence: true }).settlementEvidence).toEqual({
      payTo: "0x1111111111111111111111111111111111111111",
      recipient: TEST_RECIPIENT,
      mintTxHash: TEST_MINT_TX,
    });
  });
});
