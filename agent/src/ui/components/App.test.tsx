import { render } from "ink-testing-library";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import type { ApprovalRequest } from "../../approvals/approvalFiles.js";
import { decideApproval } from "../../approvals/decideApproval.js";
import { listPendingApprovals } from "../../approvals/listPendingApprovals.js";
import { requestApproval, type ApprovalResult } from "../../approvals/requestApproval.js";
import type { OnPayEvent } from "../../payment/payEvent.js";
import type { PayOutcome } from "../../payment/payOutcome.js";
import type { ApprovalGate } from "../../payment/payQuote.js";
import type { Quote, QuoteResult } from "../../payment/quote.js";
import { evaluateOffer } from "../../policy/evaluateOffer.js";
import type { Policy } from "../../policy/policy.js";
import { buildApprovalRequest } from "../../testing/buildApprovalRequest.js";
import { buildExtra, buildOffer, buildPaymentRequired, TEST_EXPIRES_AT } from "../../testing/buildOffer.js";
import { buildPolicy } from "../../testing/buildPolicy.js";
import { makeTempDir } from "../../testing/tempDir.js";
import { waitForFrame, waitForText } from "../../testing/waitForFrame.js";
import type { TuiDependencies } from "../tuiDependencies.js";
import { App } from "./App.js";

/** The TUI's clock sits 4 min 50 s before the builders' offer expires. */
const NOW = (TEST_EXPIRES_AT - 290) * 1000;
const BURN = `0x${"ab".repeat(32)}` as const;

let dir: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => dir.remove());

/** A payment the test drives step by step: it records the gate and event sink and waits to be finished. */
type ScriptedPayment = { approve: ApprovalGate; onEvent: OnPayEvent; finish: (outcome: PayOutcome) => void };

function setup(options: { policy?: Partial<Policy>; offer?: Quote["offer"]; quoteError?: Error; quoteResult?: QuoteResult; onExit?: (code: number) => void } = {}) {
  const policy = buildPolicy({ stateDir: dir.path, maxTotal: "5000000000000000000", maxPerPayment: "2000000000000000000", ...options.policy });
  const offer = options.offer ?? buildOffer({ amount: "1010000000000000000", extra: buildExtra({ fee: { amount: "10000000000000000", bps: 100 } }) });
  const quote: Quote = { url: new URL("http://127.0.0.1:4021/weather"), paymentRequired: buildPaymentRequired([offer]), offer, evaluation: evaluateOffer(policy, offer, NOW) };
  const payments: ScriptedPayment[] = [];
  let quoteCount = 0;
  const dependencies: TuiDependencies = {
    policy,
    quote: async () => {
      quoteCount += 1;
      if (options.quoteError !== undefined) throw options.quoteError;
      if (options.quoteResult !== undefined) return options.quoteResult;
      return { kind: "offer", quote };
    },
    verdict: async (q) => ({ ...q.evaluation, spent: "1200", cap: policy.maxTotal }),
    pay: ({ approve, onEvent }) => new Promise<PayOutcome>((finish) => payments.push({ approve, onEvent, finish })),
    tokenInfo: async () => ({ symbol: "ZRC", decimals: 18 }),
    spend: async () => [
      {
        id: "aaaaaaaaaaaa",
        createdAt: new Date(NOW).toISOString(),
        updatedAt: new Date(NOW).toISOString(),
        status: "settled",
        url: quote.url.href,
        mode: "permit",
        network: offer.network,
        asset: offer.asset,
        amount: "1200",
        payTo: offer.payTo,
        challengeNonce: `0x${"33".repeat(32)}`,
        expiresAt: TEST_EXPIRES_AT,
      },
    ],
    pendingApprovals: () => listPendingApprovals(dir.path, Date.now()),
    decide: (id, decision) => decideApproval({ stateDir: dir.path, id, decision, by: "tui" }),
    now: () => NOW,
    pollMs: 20,
  };
  const app = render(<App dependencies={dependencies} url={quote.url} binaryName="svc-agent" onExit={options.onExit} />);
  const nextPayment = async (): Promise<ScriptedPayment> => {
    for (;;) {
      const payment = payments.shift();
      if (payment !== undefined) return payment;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return { app, quote, nextPayment, quotes: () => quoteCount };
}

describe("TUI offer screen", () => {
  it("shows the offer in token and base units, token, network, countdown, mode, caps and verdict", async () => {
    const { app } = setup();
    const frame = await waitForText(app.lastFrame, "Offer for http://127.0.0.1:4021/weather");
    expect(frame).toContain("amount   1.01 ZRC (1010000000000000000 base units)");
    expect(frame).toContain("fee      0.01 ZRC (10000000000000000 base units) (100 bps, included)");
    expect(frame).toContain("token    ZRC 0x5FbDB2315678afecb367f032d93F642f64180aa3");
    expect(frame).toContain("network  eip155:31337");
    expect(frame).toContain("expires  in 4:50");
    expect(frame).toContain("mode     permit (sign only, the facilitator pays gas)");
    expect(frame).toContain("per payment  2000000000000000000");
    expect(frame).toContain("total        5000000000000000000 (per network and token)");
    expect(frame).toContain("approval     off");
    expect(frame).toContain("spent        1200 of 5000000000000000000");
    expect(frame).toContain("policy: allowed");
    expect(frame).toContain("p/enter pay");
    app.unmount();
  });

  it("shows a policy decline and does not pay on p", async () => {
    const { app, nextPayment } = setup({ policy: { maxPerPayment: "1" } });
    await waitForText(app.lastFrame, "DECLINED by policy (above_max_per_payment)");
    app.stdin.write("p");
    const raced = await Promise.race([nextPayment().then(() => "paid"), new Promise((resolve) => setTimeout(() => resolve("nothing"), 200))]);
    expect(raced).toBe("nothing");
    expect(app.lastFrame()).not.toContain("p/enter pay");
    app.unmount();
  });

  it("shows an expired offer and a failed quote as clear error states", async () => {
    const expired = setup({ offer: buildOffer({ extra: buildExtra({ expiresAt: NOW / 1000 - 1 }) }) });
    await waitForText(expired.app.lastFrame, "EXPIRED (press r for a fresh offer)");
    expired.app.unmount();
    const failed = setup({ quoteError: new Error("Host example.com is not allowed (SVC_ALLOWED_HOSTS); nothing was sent.") });
    await waitForText(failed.app.lastFrame, "NO OFFER: Host example.com is not allowed");
    failed.app.unmount();
  });

  it("shows a non-2xx answer other than 402 as a failure, with pay's exit code on quit", async () => {
    let exitCode: number | undefined;
    const response = { url: new URL("http://127.0.0.1:4021/weather"), status: 502, headers: new Headers(), body: Buffer.from("bad gateway") };
    const { app } = setup({ quoteResult: { kind: "http-error", response }, onExit: (code) => (exitCode = code) });
    const frame = await waitForText(app.lastFrame, "REQUEST FAILED: HTTP 502");
    expect(frame).toContain("answered HTTP 502 (Bad Gateway); nothing was offered or paid");
    expect(frame).not.toContain("no payment required");
    app.stdin.write("q");
    await waitForFrame(() => String(exitCode), (value) => value === "6");
    app.unmount();
  });
});

/** Outcomes and the texts their error state must show. */
const ERROR_STATES: [PayOutcome, string[]][] = [
  [{ kind: "failed", id: "0123456789ab", errorReason: "stale_permit_nonce", message: "the payment was refused: stale_permit_nonce; nothing was paid" }, ["PAYMENT FAILED: stale_permit_nonce", "the payment was refused"]],
  [{ kind: "unknown", id: "0123456789ab", offer: { network: "n", asset: "a", amount: "1" }, message: "No answer within 30000 ms." }, ["OUTCOME UNKNOWN · payment 0123456789ab", "svc-agent resend 0123456789ab"]],
  [{ kind: "approval-denied", id: "0123456789ab", result: "timed-out", offer: { network: "n", asset: "a", amount: "1" }, message: "no decision" }, ["NOT PAID (approval timed out)"]],
];

describe("TUI payment", () => {
  it("shows each phase as it happens, then the resource", async () => {
    const { app, nextPayment } = setup();
    await waitForText(app.lastFrame, "p/enter pay");
    app.stdin.write("p");
    const payment = await nextPayment();
    payment.onEvent({ type: "reserved", id: "0123456789ab", spentBefore: "0" });
    payment.onEvent({ type: "phase", id: "0123456789ab", phase: "signing" });
    expect(await waitForText(app.lastFrame, "… signing")).toContain("· provider verifying and settling");
    payment.onEvent({ type: "phase", id: "0123456789ab", phase: "verifying" });
    expect(await waitForText(app.lastFrame, "✓ signing", "… provider verifying and settling")).toContain("· settled");
    payment.onEvent({ type: "phase", id: "0123456789ab", phase: "settled" });
    payment.finish({ kind: "paid", id: "0123456789ab", offer: { network: "eip155:31337", asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3", amount: "1010000000000000000" }, transaction: BURN, resource: { status: 200, contentType: "application/json", body: '{"weather":"sunny"}' } });
    const frame = await waitForText(app.lastFrame, "PAID · payment 0123456789ab", `burn ${BURN}`);
    expect(frame).toContain('{"weather":"sunny"}');
    expect(frame).toContain("✓ settled");
    app.unmount();
  });

  it("shows the self-transfer phases with the burn hash", async () => {
    const { app, nextPayment } = setup({ policy: { mode: "self-transfer" } });
    await waitForText(app.lastFrame, "mode     self-transfer");
    app.stdin.write("\r");
    const payment = await nextPayment();
    payment.onEvent({ type: "phase", id: "0123456789ab", phase: "signing" });
    payment.onEvent({ type: "phase", id: "0123456789ab", phase: "broadcasting", txHash: BURN });
    payment.onEvent({ type: "phase", id: "0123456789ab", phase: "waiting-for-receipt", txHash: BURN });
    const frame = await waitForText(app.lastFrame, "… waiting for the burn's receipt");
    expect(frame).toContain(`✓ broadcasting the burn ${BURN}`);
    app.unmount();
  });

  it.each([
    ["y", "approved"],
    ["n", "denied"],
  ] as const)("asks inline above the threshold; %s answers %s", async (key, expected) => {
    const { app, nextPayment } = setup({ policy: { approveAbove: "1000" } });
    await waitForText(app.lastFrame, "policy: allowed, needs your approval (above SVC_APPROVE_ABOVE 1000)");
    app.stdin.write("p");
    const payment = await nextPayment();
    const request: ApprovalRequest = buildApprovalRequest({ id: "0123456789ab", amount: "1010000000000000000", threshold: "1000", decideBy: NOW + 90_000 });
    const answered: Promise<ApprovalResult> = payment.approve(request);
    const prompt = await waitForText(app.lastFrame, "Approve payment 0123456789ab?");
    expect(prompt).toContain("[y] approve · [n] deny · declined automatically in 1:30");
    app.stdin.write("p");
    app.stdin.write(key);
    await expect(answered).resolves.toBe(expected);
    await waitForFrame(app.lastFrame, (frame) => !frame.includes("Approve payment"));
    app.unmount();
  });

  it("declines the inline prompt on its own at the deadline", async () => {
    const { app, nextPayment } = setup({ policy: { approveAbove: "1000" } });
    await waitForText(app.lastFrame, "p/enter pay");
    app.stdin.write("p");
    const payment = await nextPayment();
    const answered = payment.approve(buildApprovalRequest({ decideBy: NOW + 50 }));
    await expect(answered).resolves.toBe("timed-out");
    app.unmount();
  });

  it.each(ERROR_STATES)("shows the error state of %j", async (outcome, texts) => {
    const { app, nextPayment } = setup();
    await waitForText(app.lastFrame, "p/enter pay");
    app.stdin.write("p");
    (await nextPayment()).finish(outcome);
    await waitForText(app.lastFrame, ...texts);
    app.unmount();
  });
});

describe("TUI fresh offers", () => {
  it("asks for a fresh 402 on r after a payment ended, never reusing the paid offer", async () => {
    const { app, nextPayment, quotes } = setup();
    await waitForText(app.lastFrame, "p/enter pay");
    app.stdin.write("p");
    (await nextPayment()).finish({ kind: "failed", id: "0123456789ab", message: "refused" });
    await waitForText(app.lastFrame, "PAYMENT FAILED", "r fresh quote");
    expect(quotes()).toBe(1);
    app.stdin.write("r");
    await waitForText(app.lastFrame, "p/enter pay");
    expect(app.lastFrame()).not.toContain("PAYMENT FAILED");
    expect(quotes()).toBe(2);
    app.unmount();
  });
});

describe("TUI supervising headless agents", () => {
  it.each([
    ["a", "approved"],
    ["d", "denied"],
  ] as const)("lists another agent's pending approval and answers it with %s", async (key, expected) => {
    const request = buildApprovalRequest({}, 10_000);
    const waiting = requestApproval({ stateDir: dir.path, request, pollMs: 10 });
    const { app } = setup();
    await waitForText(app.lastFrame, `› ${request.id} · 1010 base units (above 1000)`);
    app.stdin.write(key);
    await expect(waiting).resolves.toBe(expected);
    await waitForText(app.lastFrame, `${expected} ${request.id}`, "none");
    app.unmount();
  });
});
