import { afterEach, beforeEach, describe, expect, it } from "vitest";

import type { ApprovalRequest } from "../approvals/approvalFiles.js";
import { Ledger } from "../ledger/ledger.js";
import { PayerKeyMissingError } from "../policy/errors.js";
import type { Policy } from "../policy/policy.js";
import { buildExtra, buildRequirements } from "@svc/scheme/testing";
import { baseUnitsLimit, buildPolicy } from "../testing/buildPolicy.js";
import { buildQuote } from "../testing/buildQuote.js";
import { makeTempDir } from "../testing/tempDir.js";
import type { PayEvent } from "./payEvent.js";
import { payQuote } from "./payQuote.js";
import type { Quote } from "./quote.js";

/** A throwaway key; the RPC below is closed, so nothing these tests do can reach a chain. */
const KEY = "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => dir.remove());

function policy(overrides: Partial<Policy> = {}): Policy {
  return buildPolicy({ payerKey: KEY, rpcUrl: "http://127.0.0.1:9/", timeoutMs: 500, stateDir: dir.path, ...overrides });
}

function quoteFor(p: Policy, amount = "1000"): Quote {
  return buildQuote(buildRequirements({ amount }), p);
}

describe("payQuote before signing", () => {
  it("declines by policy without touching the ledger", async () => {
    const p = policy({ maxPerPayment: baseUnitsLimit("999") });
    const ledger = new Ledger(dir.path);
    const outcome = await payQuote({ quote: quoteFor(p), policy: p, ledger, approve: async () => "approved" });
    expect(outcome).toMatchObject({ kind: "declined", reason: "above_max_per_payment" });
    expect(await ledger.entries()).toEqual([]);
  });

  it("declines above the total cap, counting what is already reserved", async () => {
    const p = policy({ maxTotal: baseUnitsLimit("1500") });
    const ledger = new Ledger(dir.path);
    await ledger.reserve(
      {
        url: "http://x/",
        mode: "permit",
        network: "eip155:31337",
        asset: buildRequirements().asset,
        amount: 600n,
        payTo: buildRequirements().payTo,
        challengeNonce: `0x${"22".repeat(32)}`,
        expiresAt: 1_900_000_300,
      },
      {},
    );
    const outcome = await payQuote({ quote: quoteFor(p), policy: p, ledger, approve: async () => "approved" });
    expect(outcome).toMatchObject({ kind: "declined", reason: "above_max_total" });
    expect(outcome.kind === "declined" ? outcome.message : "").toContain("above SVC_MAX_TOTAL (1500 base units); already spent or reserved: 600 base units");
    expect(await ledger.entries()).toHaveLength(1);
  });

  it("declines above a rolling window with its own reason, what is left and when the window frees up", async () => {
    const p = policy({ maxPerDay: baseUnitsLimit("1500") });
    const reservedAt = Date.parse("2026-01-01T00:00:00.000Z");
    await new Ledger(dir.path, { now: () => reservedAt }).reserve(
      {
        url: "http://x/",
        mode: "permit",
        network: "eip155:31337",
        asset: buildRequirements().asset,
        amount: 600n,
        payTo: buildRequirements().payTo,
        challengeNonce: `0x${"33".repeat(32)}`,
        expiresAt: 1_900_000_300,
      },
      {},
    );
    const ledger = new Ledger(dir.path, { now: () => reservedAt + 3_600_000 });
    const outcome = await payQuote({ quote: quoteFor(p), policy: p, ledger, approve: async () => "approved", mcpSession: "s" });
    expect(outcome).toMatchObject({ kind: "declined", reason: "above_max_per_day" });
    expect(outcome.kind === "declined" ? outcome.message : "").toContain(
      "above SVC_MAX_PER_DAY (1500 base units per rolling 24 hours); left: 900 base units; the oldest counted payment leaves the window at 2026-01-02T00:00:00.000Z",
    );
    expect(await ledger.entries()).toHaveLength(1);
  });

  it("needs the payer key to pay, and says so before reserving anything", async () => {
    const p = policy({ payerKey: undefined });
    const ledger = new Ledger(dir.path);
    await expect(payQuote({ quote: quoteFor(p), policy: p, ledger, approve: async () => "approved" })).rejects.toThrow(PayerKeyMissingError);
    expect(await ledger.entries()).toEqual([]);
  });
});

describe("payQuote approval", () => {
  it.each(["denied", "timed-out"] as const)("releases the reservation when the approval is %s", async (result) => {
    const p = policy({ approveAbove: baseUnitsLimit("999") });
    const ledger = new Ledger(dir.path);
    const asked: ApprovalRequest[] = [];
    const outcome = await payQuote({
      quote: quoteFor(p),
      policy: p,
      ledger,
      approve: async (request) => {
        asked.push(request);
        expect((await ledger.get(request.id)).status).toBe("reserved");
        return result;
      },
    });
    expect(outcome).toMatchObject({ kind: "approval-denied", result });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ amount: 1000n, threshold: "999", pid: process.pid });
    expect(await ledger.get(asked[0]?.id ?? "")).toMatchObject({ status: "released" });
  });

  it.each([
    ["permit", 0],
    ["self-transfer", 30],
  ] as const)("in %s mode closes the question at the offer's last usable moment when that comes before the timeout", async (mode, margin) => {
    const p = policy({ approveAbove: baseUnitsLimit("999"), mode, approvalTimeoutMs: 120_000 });
    const expiresAt = Math.floor(Date.now() / 1000) + 90;
    const requirements = buildRequirements({ amount: "1000", extra: buildExtra({ expiresAt, deadline: expiresAt }) });
    const quote = buildQuote(requirements, p);
    const asked: ApprovalRequest[] = [];
    const outcome = await payQuote({
      quote,
      policy: p,
      ledger: new Ledger(dir.path),
      approve: async (request) => {
        asked.push(request);
        return "timed-out";
      },
    });
    expect(asked[0]).toMatchObject({ decideBy: (expiresAt - margin - 1) * 1000, decideByReason: "offer_expiry" });
    expect(outcome.kind === "approval-denied" ? outcome.message : "").toContain("no decision before the offer's last usable moment");
    const roomy = policy({ approveAbove: baseUnitsLimit("999"), mode, approvalTimeoutMs: 10_000 });
    const later: ApprovalRequest[] = [];
    const fresh = { ...requirements, extra: { ...requirements.extra, challengeNonce: `0x${"44".repeat(32)}` as const } };
    await payQuote({
      quote: buildQuote(fresh, roomy),
      policy: roomy,
      ledger: new Ledger(dir.path),
      approve: async (request) => {
        later.push(request);
        return "denied";
      },
    });
    expect(later[0]?.decideByReason).toBe("approval_timeout");
    expect(later[0]?.decideBy ?? 0).toBeLessThan((expiresAt - margin - 1) * 1000);
  });

  it("does not ask at or below the threshold", async () => {
    const p = policy({ approveAbove: baseUnitsLimit("1000") });
    let asked = false;
    await payQuote({
      quote: quoteFor(p),
      policy: p,
      ledger: new Ledger(dir.path),
      approve: async () => {
        asked = true;
        return "approved";
      },
    });
    expect(asked).toBe(false);
  });

  it("goes on to sign once approved, and releases the spend when signing fails before anything was sent", async () => {
    const p = policy({ approveAbove: baseUnitsLimit("999") });
    const ledger = new Ledger(dir.path);
    const events: PayEvent["type"][] = [];
    const outcome = await payQuote({ quote: quoteFor(p), policy: p, ledger, approve: async () => "approved", onEvent: (event) => events.push(event.type) });
    expect(events).toEqual(["reserved", "approval-pending", "approval-decided"]);
    expect(outcome).toMatchObject({ kind: "failed" });
    const [entry] = await ledger.entries();
    expect(entry).toMatchObject({ status: "released" });
    expect(entry?.paymentHeader).toBeUndefined();
  });
});
