import { setTimeout as delay } from "node:timers/promises";

import chalk from "chalk";
import { Box } from "ink";
import { render } from "ink-testing-library";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import type { ApprovalRequest } from "../../approvals/approvalFiles.js";
import { decideApproval } from "../../approvals/decideApproval.js";
import { ApprovalInterruptedError } from "../../approvals/errors.js";
import { listPendingApprovals } from "../../approvals/listPendingApprovals.js";
import { requestApproval, type ApprovalResult } from "../../approvals/requestApproval.js";
import type { OnPayEvent } from "../../payment/payEvent.js";
import { outcomeOffer } from "../../payment/outcomeOffer.js";
import type { OutcomeOffer, PayOutcome } from "../../payment/payOutcome.js";
import type { ApprovalGate } from "../../payment/payQuote.js";
import type { QuoteResult } from "../../payment/quote.js";
import type { Policy } from "../../policy/policy.js";
import { buildApprovalRequest } from "../../testing/buildApprovalRequest.js";
import type { PaymentRequirements } from "@svc/scheme";
import { buildExtra, buildRequirements, TEST_EXPIRES_AT } from "@svc/scheme/testing";
import { baseUnitsLimit, buildPolicy } from "../../testing/buildPolicy.js";
import { buildQuote } from "../../testing/buildQuote.js";
import { makeTempDir } from "../../testing/tempDir.js";
import { waitForFrame, waitForText } from "../../testing/waitForFrame.js";
import type { TuiDependencies } from "../tuiDependencies.js";
import { App } from "./App.js";

/** The TUI's clock sits 4 min 50 s before the builders' offer expires. */
const NOW = (TEST_EXPIRES_AT - 290) * 1000;
const BURN = `0x${"ab".repeat(32)}` as const;
const PAYER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const ZRC = 10n ** 18n;

let dir: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => dir.remove());

/** A payment the test drives step by step: it records the gate and event sink and waits to be finished. */
type ScriptedPayment = { approve: ApprovalGate; onEvent: OnPayEvent; finish: (outcome: PayOutcome) => void };

type SetupOptions = {
  policy?: Partial<Policy>;
  offer?: PaymentRequirements;
  quoteError?: Error;
  quoteResult?: QuoteResult;
  onExit?: (code: number) => void;
  url?: URL | null;
  colors?: boolean;
  /** Render inside an 80-column box with this many rows, as a small terminal would show it. */
  small?: boolean;
  resend?: TuiDependencies["resend"];
};

function setup(options: SetupOptions = {}) {
  const policy = buildPolicy({ stateDir: dir.path, maxTotal: { unit: "token", text: "5.0" }, maxPerPayment: { unit: "token", text: "2.0" }, payerKey: undefined, ...options.policy });
  const offer = options.offer ?? buildRequirements({ amount: "1010000000000000000", extra: buildExtra({ fee: { amount: "10000000000000000", bps: 100 } }) });
  const quote = buildQuote(offer, policy, NOW, { symbol: "ZRC", decimals: 18 });
  const payments: ScriptedPayment[] = [];
  const decisions: { id: string; decision: string }[] = [];
  let quoteCount = 0;
  let spent = 1200n;
  const dependencies: TuiDependencies = {
    policy,
    quote: async () => {
      quoteCount += 1;
      if (options.quoteError !== undefined) throw options.quoteError;
      if (options.quoteResult !== undefined) return options.quoteResult;
      return { kind: "offer", quote };
    },
    verdict: async (q) => ({ ...q.evaluation, spent: "1200", cap: (5n * ZRC).toString() }),
    pay: ({ approve, onEvent }) => new Promise<PayOutcome>((finish) => payments.push({ approve, onEvent, finish })),
    resend: options.resend,
    tokenInfo: async () => ({ symbol: "ZRC", decimals: 18 }),
    payerAddress: PAYER,
    balance: async () => 42n * ZRC + ZRC / 2n,
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
        amount: spent,
        payTo: offer.payTo,
        challengeNonce: `0x${"33".repeat(32)}`,
        expiresAt: TEST_EXPIRES_AT,
      },
    ],
    pendingApprovals: () => listPendingApprovals(dir.path, Date.now()),
    decide: async (id, decision) => {
      decisions.push({ id, decision });
      await decideApproval({ stateDir: dir.path, id, decision, by: "tui" });
    },
    now: () => NOW,
    pollMs: 20,
  };
  const url = options.url === null ? undefined : (options.url ?? quote.url);
  const app_ = <App dependencies={dependencies} url={url} binaryName="svc-agent" onExit={options.onExit} colors={options.colors} rows={options.small === true ? 24 : 60} />;
  const app = render(options.small === true ? <Box width={80}>{app_}</Box> : app_);
  let taken = 0;
  /** The next payment the TUI started, waited for at most `timeoutMs`. */
  const nextPayment = async (timeoutMs = 5_000): Promise<ScriptedPayment> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const payment = payments[taken];
      if (payment !== undefined) {
        taken += 1;
        return payment;
      }
      if (Date.now() > deadline) throw new Error(`the TUI started no payment #${taken + 1} within ${timeoutMs} ms; last frame:\n${app.lastFrame() ?? ""}`);
      await delay(5);
    }
  };
  return { app, quote, nextPayment, paymentsStarted: () => payments.length, quotes: () => quoteCount, decisions, setSpent: (value: bigint) => (spent = value) };
}

/**
 * Presses `key`, then `?` as a marker, and waits for the help overlay the marker opens: keys are handled in
 * order and a payment starts inside the key's own handler, so once the overlay shows, `key` has been acted on
 * (or ignored) and anything it started is recorded. Closes the overlay again.
 */
async function pressThenPassed(app: ReturnType<typeof render>, key: string): Promise<void> {
  app.stdin.write(key);
  app.stdin.write("?");
  await waitForText(app.lastFrame, "Keys (any key closes this help)");
  app.stdin.write("x");
  await waitForFrame(app.lastFrame, (frame) => !frame.includes("Keys (any key"));
}

/** Waits until `onExit` has been called and returns its code. */
async function exitCode(read: () => number | undefined): Promise<number> {
  await waitForFrame(() => String(read()), (value) => value !== "undefined");
  return read() ?? -1;
}

describe("TUI offer screen", () => {
  it("shows the payer, the offer in token units, caps with what remains, and the verdict", async () => {
    const { app } = setup();
    const frame = await waitForText(app.lastFrame, "Offer for http://127.0.0.1:4021/weather", "balance 42.5 ZRC");
    expect(frame).toContain(`payer ${PAYER} · balance 42.5 ZRC`);
    expect(frame).toContain("amount   1.01 ZRC (1010000000000000000 base units)");
    expect(frame).toContain("fee      0.01 ZRC (10000000000000000 base units) (100 bps, included)");
    expect(frame).toContain("token    ZRC 0x5FbDB2315678afecb367f032d93F642f64180aa3 on eip155:31337");
    expect(frame).toContain("expires  in 4:50");
    expect(frame).toContain("mode     permit (sign only, the facilitator pays gas)");
    expect(frame).toContain("per payment  2 ZRC · approval off");
    expect(frame).toContain("total cap    5 ZRC per network and token");
    expect(frame).toContain("spent        0.0000000000000012 ZRC of 5 ZRC · 4.9999999999999988 ZRC remaining");
    expect(frame).toContain("policy: allowed");
    expect(frame).toContain("p/enter pay");
    expect(frame).not.toContain("base units ·");
    app.unmount();
  });

  it("shows a policy decline and does not pay on p", async () => {
    const { app, paymentsStarted } = setup({ policy: { maxPerPayment: baseUnitsLimit("1") } });
    await waitForText(app.lastFrame, "DECLINED by policy (above_max_per_payment)");
    await pressThenPassed(app, "p");
    expect(paymentsStarted()).toBe(0);
    expect(app.lastFrame()).not.toContain("p/enter pay");
    app.unmount();
  });

  it("offers no pay key for an expired offer, or one too close to expiry for a self-transfer", async () => {
    const expired = setup({ offer: buildRequirements({ amount: "1000", extra: buildExtra({ expiresAt: NOW / 1000 - 1 }) }) });
    expect(await waitForText(expired.app.lastFrame, "EXPIRED (press r for a fresh offer)")).not.toContain("p/enter pay");
    expired.app.unmount();
    const late = setup({ policy: { mode: "self-transfer" }, offer: buildRequirements({ amount: "1000", extra: buildExtra({ expiresAt: NOW / 1000 + 20 }) }) });
    const frame = await waitForText(late.app.lastFrame, "too late to pay in self-transfer mode");
    expect(frame).not.toContain("p/enter pay");
    await pressThenPassed(late.app, "p");
    expect(late.paymentsStarted()).toBe(0);
    late.app.unmount();
    const roomy = setup({ policy: { mode: "self-transfer" } });
    await waitForText(roomy.app.lastFrame, "expires  in 4:50 (usable for 4:19 more: the burn needs 30 s)");
    roomy.app.unmount();
  });

  it("shows a failed quote as a clear error state", async () => {
    const failed = setup({ quoteError: new Error("Host example.com is not allowed (SVC_ALLOWED_HOSTS); nothing was sent.") });
    await waitForText(failed.app.lastFrame, "NO OFFER: Host example.com is not allowed");
    failed.app.unmount();
  });

  it("shows a non-2xx answer other than 402 as a failure, with pay's exit code on quit", async () => {
    let code: number | undefined;
    const response = { url: new URL("http://127.0.0.1:4021/weather"), status: 502, headers: new Headers(), body: Buffer.from("bad gateway") };
    const { app } = setup({ quoteResult: { kind: "http-error", response }, onExit: (value) => (code = value) });
    const frame = await waitForText(app.lastFrame, "REQUEST FAILED: HTTP 502");
    expect(frame).toContain("answered HTTP 502 (Bad Gateway); nothing was offered or paid");
    expect(frame).not.toContain("no payment required");
    app.stdin.write("q");
    expect(await exitCode(() => code)).toBe(6);
    app.unmount();
  });

});

/** Outcomes and the texts their error state must show. */
const ERROR_STATES: [PayOutcome, string[]][] = [
  [{ kind: "failed", id: "0123456789ab", errorReason: "stale_permit_nonce", message: "the payment was refused: stale_permit_nonce; nothing was paid" }, ["PAYMENT FAILED: stale_permit_nonce", "the payment was refused", "r fresh quote"]],
  [{ kind: "approval-denied", id: "0123456789ab", result: "timed-out", offer: { network: "eip155:1", asset: "0x0000000000000000000000000000000000000001", amount: 1n }, message: "no decision" }, ["NOT PAID (approval timed out)", "r fresh quote"]],
];

describe("TUI payment", () => {
  it("shows each phase as it happens, then the resource, and quits with exit 0", async () => {
    let code: number | undefined;
    const { app, nextPayment } = setup({ onExit: (value) => (code = value) });
    await waitForText(app.lastFrame, "p/enter pay");
    app.stdin.write("p");
    const payment = await nextPayment();
    payment.onEvent({ type: "reserved", id: "0123456789ab", spentBefore: "0" });
    payment.onEvent({ type: "phase", id: "0123456789ab", phase: "signing" });
    expect(await waitForText(app.lastFrame, "… signing")).toContain("· provider verifying and settling");
    app.stdin.write("q");
    await waitForText(app.lastFrame, "a payment is on its way: q works once it has ended");
    payment.onEvent({ type: "phase", id: "0123456789ab", phase: "verifying" });
    expect(await waitForText(app.lastFrame, "✓ signing", "… provider verifying and settling")).toContain("· settled");
    payment.onEvent({ type: "phase", id: "0123456789ab", phase: "settled" });
    payment.finish({ kind: "paid", id: "0123456789ab", offer: { network: "eip155:31337", asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3", amount: 1010000000000000000n }, transaction: BURN, resource: { status: 200, contentType: "application/json", body: '{"weather":"sunny"}' } });
    const frame = await waitForText(app.lastFrame, "PAID 1.01 ZRC · payment 0123456789ab", `burn ${BURN}`);
    expect(frame).toContain('{"weather":"sunny"}');
    expect(frame).toContain("✓ settled");
    // A used offer shows how it ended; nothing counts down any more.
    expect(frame).toContain("offer    used: paid");
    expect(frame).not.toMatch(/expires {2}in/);
    app.stdin.write("q");
    expect(await exitCode(() => code)).toBe(0);
    app.unmount();
  });

  it("at 80 columns the settled payment fits: no line wider than the terminal, none wrapped", async () => {
    const { app, nextPayment } = setup({ small: true, policy: { mode: "self-transfer" } });
    await waitForText(app.lastFrame, "p/enter pay");
    app.stdin.write("p");
    const payment = await nextPayment();
    payment.onEvent({ type: "reserved", id: "0123456789ab", spentBefore: "0" });
    for (const phase of ["signing", "broadcasting", "waiting-for-receipt", "verifying", "settled"] as const)
      payment.onEvent({ type: "phase", id: "0123456789ab", phase, txHash: phase === "broadcasting" ? BURN : undefined });
    payment.finish({ kind: "paid", id: "0123456789ab", offer: { network: "eip155:31337", asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3", amount: 1010000000000000000n }, transaction: BURN, resource: { status: 200, contentType: undefined, body: "sunny" } });
    const frame = await waitForText(app.lastFrame, "PAID 1.01 ZRC · payment 0123456789ab");
    for (const line of frame.split("\n")) expect([...line].length).toBeLessThanOrEqual(80);
    // The spend line breaks between phrases, never inside one.
    expect(frame).toMatch(/^spent 0\.0000000000000012 ZRC of 5 ZRC · 4\.9999999999999988 ZRC remaining$/m);
    expect(frame).toMatch(/^· per payment ≤ 2 ZRC$/m);
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
    ["y", "approved", 0],
    ["n", "denied", 4],
  ] as const)("asks inline above the threshold; %s answers %s and quitting exits %i", async (key, expected, exit) => {
    let code: number | undefined;
    const { app, nextPayment } = setup({ policy: { approveAbove: baseUnitsLimit("1000") }, onExit: (value) => (code = value) });
    await waitForText(app.lastFrame, "policy: allowed, needs your approval (above SVC_APPROVE_ABOVE 0.000000000000001 ZRC)");
    app.stdin.write("p");
    const payment = await nextPayment();
    const request: ApprovalRequest = buildApprovalRequest({ id: "0123456789ab", amount: 1010000000000000000n, threshold: "1000", decideBy: NOW + 90_000 });
    const answered: Promise<ApprovalResult> = payment.approve(request);
    const prompt = await waitForText(app.lastFrame, "Approve payment 0123456789ab?");
    expect(prompt).toContain("pay      1.01 ZRC to 127.0.0.1:4021 (/weather) by permit");
    expect(prompt).toContain("deadline declined automatically in 1:30");
    expect(prompt).toContain("[y] approve · [n] deny · [q] quit without deciding");
    app.stdin.write("p");
    app.stdin.write(key);
    await expect(answered).resolves.toBe(expected);
    await waitForFrame(app.lastFrame, (frame) => !frame.includes("Approve payment"));
    payment.finish(expected === "approved" ? { kind: "paid", id: request.id, offer: outcomeOffer(request), transaction: BURN, resource: { status: 200, contentType: undefined, body: "ok" } } : { kind: "approval-denied", id: request.id, result: "denied", offer: outcomeOffer(request), message: "a human denied the payment" });
    await waitForText(app.lastFrame, expected === "approved" ? "PAID" : "NOT PAID (approval denied)");
    app.stdin.write("q");
    expect(await exitCode(() => code)).toBe(exit);
    app.unmount();
  });

  it("at 80x24 the prompt alone says what is paid, to whom and what the cap leaves, and its countdown is the offer's", async () => {
    const { app, nextPayment, setSpent } = setup({ small: true, policy: { approveAbove: baseUnitsLimit("1000"), mode: "self-transfer" } });
    await waitForText(app.lastFrame, "p/enter pay");
    app.stdin.write("p");
    const payment = await nextPayment();
    setSpent(1200n + 1010000000000000000n);
    // The offer expires in 4:50; a self-transfer must be paid 30 s before that, so the question closes at 4:19.
    const request = buildApprovalRequest({ id: "0123456789ab", amount: 1010000000000000000n, threshold: "1000", mode: "self-transfer", decideBy: (TEST_EXPIRES_AT - 31) * 1000, decideByReason: "offer_expiry" });
    const answered = payment.approve(request);
    const frame = await waitForText(app.lastFrame, "Approve payment 0123456789ab?", "3.9899999999999988 ZRC remaining");
    const lines = frame.split("\n");
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(frame).toContain("pay      1.01 ZRC to 127.0.0.1:4021 (/weather) by self-transfer");
    expect(frame).toContain("why      above SVC_APPROVE_ABOVE (0.000000000000001 ZRC)");
    expect(frame).toContain("cap      3.9899999999999988 ZRC remaining of 5 ZRC after this payment");
    expect(frame).toContain("token    0x5FbDB2315678afecb367f032d93F642f64180aa3 · eip155:31337");
    expect(frame).toContain("deadline declined automatically in 4:19 (the offer's last usable moment)");
    app.unmount();
    // Leaving the TUI withdraws the question: nothing is decided, nothing paid.
    await expect(answered).rejects.toThrow(/Interrupted while waiting for approval/);
  });

  it("declines the inline prompt on its own at the deadline", async () => {
    const { app, nextPayment } = setup({ policy: { approveAbove: baseUnitsLimit("1000") } });
    await waitForText(app.lastFrame, "p/enter pay");
    app.stdin.write("p");
    const payment = await nextPayment();
    const answered = payment.approve(buildApprovalRequest({ decideBy: NOW + 50 }));
    await expect(answered).resolves.toBe("timed-out");
    app.unmount();
  });

  it("q with a prompt open asks first: n goes back, y withdraws the approval without deciding and exits 130", async () => {
    let code: number | undefined;
    const { app, nextPayment } = setup({ policy: { approveAbove: baseUnitsLimit("1000") }, onExit: (value) => (code = value) });
    await waitForText(app.lastFrame, "p/enter pay");
    app.stdin.write("p");
    const payment = await nextPayment();
    const answered = payment.approve(buildApprovalRequest({ id: "0123456789ab", decideBy: NOW + 90_000 }));
    await waitForText(app.lastFrame, "Approve payment 0123456789ab?");
    app.stdin.write("q");
    await waitForText(app.lastFrame, "Quit without deciding? The approval is withdrawn and nothing is paid (exit 130).");
    app.stdin.write("n");
    await waitForFrame(app.lastFrame, (frame) => !frame.includes("Quit without deciding"));
    expect(app.lastFrame()).toContain("Approve payment 0123456789ab?");
    app.stdin.write("q");
    await waitForText(app.lastFrame, "Quit without deciding?");
    app.stdin.write("y");
    await expect(answered).rejects.toThrow(ApprovalInterruptedError);
    payment.finish({ kind: "failed", message: "withdrawn" });
    expect(await exitCode(() => code)).toBe(130);
    app.unmount();
  });

  it("Ctrl-C quits with exit 130, as an interrupted headless agent does", async () => {
    let code: number | undefined;
    const { app } = setup({ onExit: (value) => (code = value) });
    await waitForText(app.lastFrame, "p/enter pay");
    app.stdin.write("\u0003");
    expect(await exitCode(() => code)).toBe(130);
    app.unmount();
  });

  it.each(ERROR_STATES)("shows the error state of %o", async (outcome, texts) => {
    const { app, nextPayment } = setup();
    await waitForText(app.lastFrame, "p/enter pay");
    app.stdin.write("p");
    (await nextPayment()).finish(outcome);
    await waitForText(app.lastFrame, ...texts);
    app.unmount();
  });

  it("after an unknown outcome offers s to re-send (once, no fresh quote), and shows the re-send's result", async () => {
    const resent: string[] = [];
    let finishResend: (outcome: PayOutcome) => void = () => undefined;
    const { app, nextPayment, quotes } = setup({
      resend: ({ id, onEvent }) => {
        resent.push(id);
        onEvent({ type: "phase", id, phase: "verifying" });
        return new Promise((resolve) => (finishResend = resolve));
      },
    });
    await waitForText(app.lastFrame, "p/enter pay");
    app.stdin.write("p");
    const offer: OutcomeOffer = { network: "eip155:31337", asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3", amount: 1010000000000000000n };
    (await nextPayment()).finish({ kind: "unknown", id: "0123456789ab", offer, message: "No answer within 30000 ms; run `svc-agent resend 0123456789ab` to re-send the same payment" });
    const frame = await waitForText(app.lastFrame, "OUTCOME UNKNOWN · payment 0123456789ab", "s re-send");
    expect(frame).toContain("press s to re-send the same signed payment now");
    expect(frame.match(/resend 0123456789ab/g)).toHaveLength(1);
    expect(frame).not.toContain("r fresh quote");
    app.stdin.write("r");
    app.stdin.write("s");
    await waitForText(app.lastFrame, "… provider verifying and settling");
    app.stdin.write("s");
    finishResend({ kind: "paid", id: "0123456789ab", offer, transaction: BURN, resource: { status: 200, contentType: undefined, body: "sunny" } });
    await waitForText(app.lastFrame, "PAID 1.01 ZRC · payment 0123456789ab", "sunny");
    expect(resent).toEqual(["0123456789ab"]);
    expect(quotes()).toBe(1);
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
  it("pins another agent's request above everything, announces it, and approves only after a confirmation", async () => {
    const { app, decisions } = setup({ url: null });
    await waitForText(app.lastFrame, "Pending approvals from other agents: none");
    const request = buildApprovalRequest({ amount: 1010000000000000n, threshold: "1000000000000000" }, 10_000);
    const waiting = requestApproval({ stateDir: dir.path, request, pollMs: 10 });
    const frame = await waitForText(app.lastFrame, `NEW: payment ${request.id} from process ${process.pid} is waiting for your approval`);
    expect(frame).toContain(`› ${request.id}  0.00101 ZRC to 127.0.0.1:4021`);
    expect(frame).toContain("above 0.001 ZRC · permit · eip155:31337 · /weather");
    const lines = frame.split("\n");
    expect(lines.findIndex((line) => line.includes("Pending approvals from other agents (1)"))).toBeLessThan(lines.findIndex((line) => line.includes("Caps and spend")));
    app.stdin.write("a");
    await waitForText(app.lastFrame, `Approve payment ${request.id} of process ${process.pid}: 0.00101 ZRC to 127.0.0.1:4021?`);
    app.stdin.write("n");
    await waitForFrame(app.lastFrame, (next) => !next.includes("[y] yes"));
    expect(decisions).toEqual([]);
    app.stdin.write("a");
    await waitForText(app.lastFrame, "[y] yes · [n] no, back");
    app.stdin.write("y");
    await expect(waiting).resolves.toBe("approved");
    await waitForText(app.lastFrame, `approved ${request.id}`, "Pending approvals from other agents: none");
    expect(decisions).toEqual([{ id: request.id, decision: "approved" }]);
    app.unmount();
  });

  it("denies the selected request with d, without a confirmation", async () => {
    const request = buildApprovalRequest({}, 10_000);
    const waiting = requestApproval({ stateDir: dir.path, request, pollMs: 10 });
    const { app } = setup();
    await waitForText(app.lastFrame, `› ${request.id}  0.00000000000000101 ZRC`);
    app.stdin.write("d");
    await expect(waiting).resolves.toBe("denied");
    await waitForText(app.lastFrame, `denied ${request.id}`);
    app.unmount();
  });

  it("at 80x24 keeps a pending request and the key bar on screen beside the offer", async () => {
    const request = buildApprovalRequest({}, 10_000);
    const waiting = requestApproval({ stateDir: dir.path, request, pollMs: 10 });
    const { app } = setup({ small: true });
    const frame = await waitForText(app.lastFrame, `› ${request.id}`, "p/enter pay");
    expect(frame.split("\n").length).toBeLessThanOrEqual(24);
    expect(frame).toContain("spent 0.0000000000000012 ZRC of 5 ZRC · 4.9999999999999988 ZRC remaining");
    app.stdin.write("d");
    await waiting;
    app.unmount();
  });
});

describe("TUI help and colours", () => {
  it("opens the help overlay on ? and closes it on any key without acting", async () => {
    const { app, paymentsStarted } = setup({ small: true });
    await waitForText(app.lastFrame, "p/enter pay");
    app.stdin.write("?");
    const frame = await waitForText(app.lastFrame, "Keys (any key closes this help)");
    expect(frame).toContain("s          re-send an unknown outcome's payment (never pays twice)");
    expect(frame).toContain("6 HTTP error · 130 interrupted");
    expect(frame.split("\n").length).toBeLessThanOrEqual(24);
    app.stdin.write("p");
    // The key that closed the help is the one that would have paid: `pay` starts in the same key handler.
    await waitForFrame(app.lastFrame, (next) => !next.includes("Keys (any key"));
    expect(paymentsStarted()).toBe(0);
    app.unmount();
  });

  it("colours nothing with NO_COLOR", async () => {
    const level = chalk.level;
    chalk.level = 1;
    try {
      const coloured = setup({ policy: { maxPerPayment: baseUnitsLimit("1") } });
      expect(await waitForText(coloured.app.lastFrame, "DECLINED by policy")).toMatch(/\u001b\[3[1-7]m/);
      coloured.app.unmount();
      const plain = setup({ policy: { maxPerPayment: baseUnitsLimit("1") }, colors: false });
      expect(await waitForText(plain.app.lastFrame, "DECLINED by policy")).not.toMatch(/\u001b\[(3[0-7]|9[0-7])m/);
      plain.app.unmount();
    } finally {
      chalk.level = level;
    }
  });
});
